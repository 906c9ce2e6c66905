import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

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
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "Literal[regex.pattern=/\\{8\\}-|\\{36\\}/]",
          message:
            "Check ids with lib/ids/uuid.ts (isUuid, uuidSchema, notFoundUnlessUuid), not a regex of your own.",
        },
        {
          selector: "CallExpression[callee.object.name='z'][callee.property.name=/^(uuid|guid)$/]",
          message:
            "Check ids with lib/ids/uuid.ts (uuidSchema, uuidField), so every id is checked the same way.",
        },
      ],
    },
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
    files: ["components/ui/**/*.{ts,tsx}"],
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
              message: "UI primitives take actions as props; they never import a route.",
            },
          ],
        },
      ],
    },
  },
];

export default config;
