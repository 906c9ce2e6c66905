import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";
import httpStatusRules from "./eslint-rules/no-http-status.mjs";
import adapterRules from "./eslint-rules/adapter-rules.mjs";
import localRules from "./eslint-rules/no-issue-references.mjs";

// The kernel keeps each id check in lib/ids (docs/decisions.md, "One shared kernel").
const ID_RULES = [
  {
    selector: "Literal[regex.pattern=/\\{8\\}-|\\{36\\}/]",
    message:
      "Check ids with lib/ids/uuid.ts (isUuid, uuidSchema, notFoundUnlessUuid), not a regex of your own.",
  },
  {
    selector: "CallExpression[callee.object.name='z'][callee.property.name=/^(uuid|guid)$/]",
    message: "Check ids with lib/ids/uuid.ts (uuidSchema, uuidField), so every id is checked the same way.",
  },
];

// Route handlers read bodies only through lib/http/read-limited-body, which refuses a body past its cap
// while reading; these methods buffer a body of any size (docs/decisions.md, "Bounded request bodies").
const BODY_RULES = [
  {
    selector:
      "CallExpression[callee.type='MemberExpression'][callee.property.name=/^(text|json|formData|arrayBuffer|blob|bytes)$/][callee.object.name=/^(request|req)$/]",
    message:
      "Read request bodies with readLimitedBody/readLimitedText from lib/http/read-limited-body (bounded while reading).",
  },
];

const DATE_IMPORTS = {
  name: "date-fns-tz",
  message: "Format and convert dates with lib/time (format.ts, zones.ts).",
};

// The worker's composition root binds every queue to its area's handler; areas enqueue through
// the contracts in lib/jobs and never import it (docs/decisions.md, "Jobs with contracts").
const WORKER_ROOT_IMPORTS = {
  group: ["@/worker", "@/worker/*", "**/worker/registry", "**/worker/start"],
  message:
    "Only the worker's entry points import worker/: enqueue with lib/jobs/enqueue.ts and the contracts in lib/jobs/queues.ts.",
};

const config = [
  ...nextVitals,
  ...nextTs,
  {
    ignores: [
      "node_modules/**",
      ".next/**",
      ".data/**",
      ".scratch/**",
      "next-env.d.ts",
      "test-results/**",
      "playwright-report/**",
    ],
  },
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  // Comments and test titles cite the spec or docs/decisions.md, never an issue, attack or DESIGN number.
  {
    files: ["**/*.{ts,tsx,mts,js,mjs,cjs}"],
    plugins: { local: localRules },
    rules: { "local/no-issue-references": "error" },
  },
  // Statuses come only from the codes of lib/errors/app-error.ts, through the adapters, the REST API's
  // operations (lib/api: each declares its HTTP answers) and lib/http.
  {
    files: ["lib/**/*.{ts,tsx}"],
    ignores: ["lib/adapters/**", "lib/api/**", "lib/http/**", "lib/errors/app-error.ts"],
    plugins: { "http-status": httpStatusRules },
    rules: { "http-status/no-http-status": "error" },
  },
  // Every route handler and server action is built by an adapter (lib/adapters), none catches errors
  // itself; only flows, the job engine, the adapters, the doors and the identity open transactions
  // (docs/decisions.md, "One error type and the adapters").
  {
    files: ["app/**/*.{ts,tsx}", "components/**/*.{ts,tsx}"],
    plugins: { adapters: adapterRules },
    rules: { "adapters/adapters-only": "error" },
  },
  {
    files: ["lib/**/*.{ts,tsx}"],
    ignores: [
      "lib/db/**",
      "lib/adapters/**",
      "lib/api/v1/route.ts",
      "lib/api/v1/key-auth.ts",
      "lib/api/v1/public-route.ts",
      "lib/jobs/**",
      "lib/**/flows/**",
      "lib/auth/context.ts",
      "lib/auth/session.ts",
    ],
    plugins: { adapters: adapterRules },
    rules: { "adapters/transactions-in-flows": "error" },
  },
  // The kernel keeps each concern in one place (docs/decisions.md, "One shared kernel").
  {
    files: [
      "app/**/*.{ts,tsx}",
      "lib/**/*.{ts,tsx}",
      "components/**/*.{ts,tsx}",
      "scripts/**/*.ts",
      "worker/**/*.ts",
      "proxy.ts",
    ],
    ignores: ["lib/ids/**"],
    rules: { "no-restricted-syntax": ["error", ...ID_RULES] },
  },
  // route handlers: both (a later block replaces the rule for the files it matches)
  {
    files: ["app/api/**/*.ts"],
    rules: { "no-restricted-syntax": ["error", ...ID_RULES, ...BODY_RULES] },
  },
  {
    files: ["app/**/*.{ts,tsx}", "lib/**/*.{ts,tsx}", "components/**/*.{ts,tsx}", "proxy.ts"],
    ignores: ["lib/time/**"],
    rules: { "no-restricted-imports": ["error", { paths: [DATE_IMPORTS], patterns: [WORKER_ROOT_IMPORTS] }] },
  },
  // scripts are entry points (`npm start` and `npm run worker` start the worker's root)
  {
    files: ["scripts/**/*.ts"],
    rules: { "no-restricted-imports": ["error", { paths: [DATE_IMPORTS] }] },
  },
  // the worker runs areas, never the REST API layer (HTTP in, HTTP out)
  {
    files: ["worker/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [DATE_IMPORTS],
          patterns: [
            {
              group: ["@/lib/api", "@/lib/api/*", "@/lib/adapters", "@/lib/adapters/*"],
              message: "The worker does not import the HTTP layer: move what it needs to its area in lib/.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["lib/time/**/*.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: [WORKER_ROOT_IMPORTS] }] },
  },
  // the job engine imports no area: areas import it to enqueue (docs/decisions.md, "Jobs with contracts")
  {
    files: ["lib/jobs/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [DATE_IMPORTS],
          patterns: [
            WORKER_ROOT_IMPORTS,
            {
              group: [
                "@/lib/*",
                "!@/lib/db",
                "!@/lib/db/*",
                // the error codes a job's outcome names (docs/decisions.md, "One job outcome")
                "!@/lib/errors",
                "!@/lib/errors/*",
                "!@/lib/ids",
                "!@/lib/ids/*",
                "!@/lib/jobs",
                "!@/lib/jobs/*",
                "!@/lib/observability",
                "!@/lib/observability/*",
              ],
              message: "The job engine imports no area; bind a queue's handler in worker/registry.ts.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["components/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [DATE_IMPORTS],
          patterns: [
            WORKER_ROOT_IMPORTS,
            {
              group: ["@/app", "@/app/*"],
              message: "Components take their server actions as props from the page; they never import app/.",
            },
          ],
        },
      ],
    },
  },
];

export default config;
