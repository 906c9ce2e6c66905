import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";
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
  // The kernel keeps each concern in one place (docs/decisions.md, "One shared kernel").
  {
    files: [
      "app/**/*.{ts,tsx}",
      "lib/**/*.{ts,tsx}",
      "components/**/*.{ts,tsx}",
      "scripts/**/*.ts",
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
    files: [
      "app/**/*.{ts,tsx}",
      "lib/**/*.{ts,tsx}",
      "components/**/*.{ts,tsx}",
      "scripts/**/*.ts",
      "proxy.ts",
    ],
    ignores: ["lib/time/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [
            { name: "date-fns-tz", message: "Format and convert dates with lib/time (format.ts, zones.ts)." },
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
          paths: [
            { name: "date-fns-tz", message: "Format and convert dates with lib/time (format.ts, zones.ts)." },
          ],
          patterns: [
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
