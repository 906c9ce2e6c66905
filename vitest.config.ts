import path from "node:path";
import { defineConfig } from "vitest/config";

const alias = { "@": path.resolve(__dirname) };

// Integration tests run on the embedded PGlite always, and on the real Postgres server
// as well when DATABASE_URL is set (as in CI). Each test file gets its own database.
const integration = (db: "pglite" | "postgres") => ({
  extends: true as const,
  test: {
    name: `integration-${db}`,
    include: ["tests/integration/**/*.test.ts"],
    env: { TEST_DB: db },
    globalSetup: ["tests/helpers/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

export default defineConfig({
  resolve: { alias },
  test: {
    pool: "forks",
    projects: [
      {
        extends: true,
        test: { name: "unit", include: ["tests/unit/**/*.test.ts", "lib/**/*.test.ts"] },
      },
      integration("pglite"),
      ...(process.env.DATABASE_URL ? [integration("postgres")] : []),
    ],
  },
});
