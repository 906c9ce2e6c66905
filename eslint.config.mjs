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
  // Attack 5 (DESIGN 7): route handlers read bodies only through lib/http/read-limited-body,
  // which refuses a body past its cap while reading; these methods buffer a body of any size.
  {
    files: ["app/api/**/*.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector:
            "CallExpression[callee.type='MemberExpression'][callee.property.name=/^(text|json|formData|arrayBuffer|blob|bytes)$/][callee.object.name=/^(request|req)$/]",
          message:
            "Read request bodies with readLimitedBody/readLimitedText from lib/http/read-limited-body (bounded while reading).",
        },
      ],
    },
  },
];

export default config;
