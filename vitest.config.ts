import path from "node:path";
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

const alias = { "@": path.resolve(__dirname) };

/**
 * Integration files whose outcome cannot depend on the database engine: what they check is
 * decided in TypeScript before or beside the database (request parsing and bounds, provider
 * protocols, origins and client addresses, command-line wiring), and the SQL they reach is run
 * on both engines by the files named here. They run once: on the real server when
 * DATABASE_URL is set (production's engine), else on PGlite.
 */
export const ENGINE_INDEPENDENT = [
  // no database at all: Supabase MFA against a stand-in GoTrue
  "tests/integration/two-factor-supabase.test.ts",
  // bodies over the bound are refused while being read (lib/http), before any query
  "tests/integration/security-bounded-bodies.test.ts",
  // malformed input refused by the zod schemas before the transaction; forms-pipeline stores
  "tests/integration/forms-hostile-input.test.ts",
  // the captcha provider's verdict (HTTP); storing a submission: forms-pipeline
  "tests/integration/security-captcha.test.ts",
  // Sec-Fetch-Site / Origin checks on the backfill GETs; the backfill: payments-backfill
  "tests/integration/security-backfill-origin.test.ts",
  // the embedded database's password gate: PGlite only, whatever DATABASE_URL says
  "tests/integration/security-embedded-database.test.ts",
  // X-Forwarded-For and TRUSTED_PROXY_HOPS; the limiter's SQL: rate-limit
  "tests/integration/security-client-ip.test.ts",
  // arguments, exit codes, output and report file; the import's SQL: contacts-import*
  "tests/integration/contacts-import-cli.test.ts",
  // arguments, exit codes, output, endpoint authentication; the backfill's SQL: payments-backfill
  "tests/integration/payments-backfill-cli.test.ts",
];

/**
 * The files that take longest, longest first: those waiting on workers, their retries and
 * restarts (20 to 120 s a run each), and the two that make thousands of requests (the REST
 * attacker and the v1 attack fuzzer), while the rest take seconds. A fresh clone has no timings
 * from an earlier run, and vitest then starts the largest files first, which put the small SIGKILL
 * file last, alone, for up to two minutes. These start first (their waits overlap the rest of the
 * suite); the rest follow in vitest's own order (the slowest of the last run first when there
 * was one, else the largest).
 */
export const WAITS_LONGEST = [
  "tests/integration/jobs-broadcast.test.ts",
  "tests/integration/rest-attacker.test.ts",
  "tests/integration/api-v1-rest-attacks.test.ts",
  "tests/integration/jobs-ticketing-kill.test.ts",
  "tests/integration/jobs-ticketing.test.ts",
  "tests/integration/jobs-payments-backfill.test.ts",
  "tests/integration/jobs-workspace-index.test.ts",
  "tests/integration/jobs-sweeps.test.ts",
  "tests/integration/jobs-contracts.test.ts",
];

class LongestWaitsFirst extends BaseSequencer {
  async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const i = WAITS_LONGEST.findIndex((name) => file.moduleId.endsWith(name));
      return i === -1 ? WAITS_LONGEST.length : i;
    };
    // Array.prototype.sort is stable: within a rank, vitest's order stays
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

/**
 * Files that replace modules with `vi.mock` in their own way (Next's request scope, the session):
 * they run with a module registry of their own. Every other file shares its worker's loaded
 * modules with the files before it (`isolate: false` below), and with them one replacement of
 * Next's request scope (tests/helpers/session-mocks.ts).
 */
export const MOCKS_MODULES = [
  "tests/integration/adapters-one-transaction.test.ts",
  "tests/integration/payments-backfill-cli.test.ts",
  "tests/integration/security-bounded-bodies.test.ts",
  "tests/integration/security-ticketing-webhook.test.ts",
];

// one session key for every file: lib/auth/secret.ts reads it once per (shared) worker process
// The fake Resend limits only where a test asks it to (tests/integration/sending-pacer.test.ts sets
// both sides): elsewhere the pacer keeps to a rate the fake never refuses.
const env = (db: string) => ({
  TEST_DB: db,
  AUTH_SECRET: process.env.AUTH_SECRET ?? "test-secret-that-is-at-least-32-characters-long",
  RESEND_REQUESTS_PER_SECOND: "1000",
});

// Integration tests run on the embedded PGlite always, and on the real Postgres server
// as well when DATABASE_URL is set (as in CI). Each test file gets its own database.
const integration = (db: "pglite" | "postgres", exclude: string[] = []) => [
  {
    extends: true as const,
    test: {
      name: `integration-${db}`,
      include: ["tests/integration/**/*.test.ts"],
      exclude: [...exclude, ...MOCKS_MODULES],
      env: env(db),
      // Next's request scope and the signed-in member, replaced alike for every file
      setupFiles: ["tests/helpers/session-mocks.ts"],
      globalSetup: ["tests/helpers/global-setup.ts"],
      testTimeout: 30_000,
      hookTimeout: 60_000,
    },
  },
  {
    extends: true as const,
    test: {
      name: `integration-${db}-mocks`,
      include: MOCKS_MODULES.filter((file) => !exclude.includes(file)),
      env: env(db),
      globalSetup: ["tests/helpers/global-setup.ts"],
      testTimeout: 30_000,
      hookTimeout: 60_000,
      // a fresh module registry per file, in the shared worker process
      poolOptions: { forks: { isolate: true } },
    },
  },
];

const workers = Number(process.env.TEST_WORKERS ?? 3);

export default defineConfig({
  resolve: { alias },
  test: {
    // what the code under test logs (lib/observability/log.ts routes pino through the console
    // here) and prints is shown for failing tests only
    silent: "passed-only",
    sequence: { sequencer: LongestWaitsFirst },
    pool: "forks",
    // Worker processes and the modules they loaded are kept from one file to the next: importing
    // the app's modules afresh for each file was a third of the suite's work
    // (docs/performance.md, "The test suite"). Each file still gets its own database, and
    // tests/helpers/file-env.ts puts back the environment it changed.
    poolOptions: { forks: { isolate: false } },
    setupFiles: ["tests/helpers/file-env.ts"],
    // the suite mostly waits (on databases, workers, child processes): a sample of its slowest
    // files used ~25% of one core at one file at a time; three at once on a 2-core machine
    maxWorkers: workers,
    // as many kept as started: a worker let go when idle could be handed the next file as it went
    // (tinypool's idle removal racing vitest, "Terminating worker thread")
    minWorkers: workers,
    projects: [
      {
        extends: true,
        test: { name: "unit", include: ["tests/unit/**/*.test.ts", "lib/**/*.test.ts"] },
      },
      ...(process.env.DATABASE_URL
        ? [...integration("pglite", ENGINE_INDEPENDENT), ...integration("postgres")]
        : integration("pglite")),
    ],
  },
});
