import { defineConfig } from "@playwright/test";
import { E2E_AUTH_SECRET } from "./tests/e2e/helpers/session-key";

const PORT = Number(process.env.E2E_PORT ?? 3100);

// the session key of the server started below and of the specs' workers (helpers/session-key.ts)
process.env.AUTH_SECRET ??= E2E_AUTH_SECRET;

// Debian's Chromium: Playwright cannot download its own browser here.
const executablePath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export default defineConfig({
  testDir: "tests/e2e",
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // spec files run side by side (each signs up its own account and workspace, from a client
  // address of its own: helpers/accounts.ts); the tests of one file run in order.
  // E2E_WORKERS=1 runs them one at a time.
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS ?? 2),
  retries: 0,
  reporter: process.env.CI ? "list" : [["list"]],
  use: {
    baseURL: `http://localhost:${PORT}`,
    trace: "retain-on-failure",
    launchOptions: {
      executablePath,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  // E2E_EXTERNAL_SERVER=1: the app is already running on E2E_PORT, started by someone else (the
  // topology tier, scripts/test-topology.ts, with its own processes and databases)
  webServer:
    process.env.E2E_EXTERNAL_SERVER === "1"
      ? undefined
      : {
          command: "npx tsx scripts/e2e-server.ts",
          url: `http://localhost:${PORT}/api/health`,
          // `npm start` builds the app first unless .next is current (scripts/build-stamp.ts; npm test
          // builds it beside vitest): minutes on a 2-core machine
          timeout: 900_000,
          reuseExistingServer: !process.env.CI,
          stdout: "pipe",
          // uploads over 64 KB are imported by a job (tests/e2e/contacts-import-job.spec.ts);
          // the other import specs' files stay under it and run in the request
          // the server's info lines (each request, the dev outbox) stay out of the test output
          env: {
            PORT: String(PORT),
            IMPORT_JOB_THRESHOLD_BYTES: "65536",
            LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
          },
        },
});
