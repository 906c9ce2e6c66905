import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { afterAll, afterEach, beforeAll } from "vitest";
import { startWorker, type RunningWorker } from "@/worker/start";
import type { QueueName } from "@/lib/jobs/queues";
import type { TestDatabase } from "./db";
import { watchChanges } from "./jobs";
import { TEMPLATE_DUMP } from "./template";

/**
 * Short polls and supervision, so tests wait seconds rather than the production defaults; and
 * broadcast batches small enough that a 2,000-contact send takes several (a kill lands mid-send).
 */
export const TEST_JOB_ENV = {
  JOBS_POLL_SECONDS: "0.5",
  JOBS_SUPERVISE_SECONDS: "1",
  BROADCAST_OUTBOX_BATCH_ROWS: "250",
};

/**
 * Workers for one test file: in this process (`inProcess`, sharing the test's pool as the app
 * pool) or as separate `npm run worker` processes (`spawnWorker`, which can be killed with
 * SIGKILL). All are stopped after each test. `waitFor` in the file re-checks on the database's
 * change signals (`watchChanges`, tests/helpers/jobs.ts) instead of polling.
 */
export function setupWorkers(db: TestDatabase) {
  const running: RunningWorker[] = [];
  const children: ChildProcess[] = [];
  Object.assign(process.env, TEST_JOB_ENV);
  let unwatch = async () => {};
  beforeAll(async () => {
    unwatch = await watchChanges(db);
  });
  const stopAll = async () => {
    for (const child of children.splice(0)) {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await exited;
      }
    }
    for (const worker of running.splice(0)) await worker.stop(1000);
  };
  afterEach(stopAll);
  afterAll(async () => {
    await stopAll();
    await unwatch();
  });
  return {
    async inProcess(queues?: QueueName[]): Promise<RunningWorker> {
      const worker = await startWorker({ url: db.url, embedded: db.kind === "pglite", queues });
      running.push(worker);
      return worker;
    },
    /**
     * The embedded service (PGlite and a worker in one process, tests/helpers/embedded-service.ts)
     * on `dataDir`, served on `port` behind `password`; resolves once its worker runs.
     */
    async spawnEmbeddedService(input: {
      dataDir: string;
      port: number;
      password: string;
      fromTemplate: boolean;
    }) {
      const child = spawn(
        process.execPath, // node itself (not the tsx wrapper, whose SIGKILL would leave its node running)
        ["--import", "tsx", path.resolve("tests/helpers/embedded-service.ts")],
        {
          env: {
            ...process.env,
            ...TEST_JOB_ENV,
            DATA_DIR: input.dataDir,
            EMBEDDED_DB_PORT: String(input.port),
            EMBEDDED_DB_PASSWORD: input.password,
            TEMPLATE_DUMP: input.fromTemplate ? TEMPLATE_DUMP : "",
          },
          stdio: ["ignore", "pipe", "inherit"],
        },
      );
      children.push(child);
      await new Promise<void>((resolve, reject) => {
        child.stdout!.on("data", (chunk: Buffer) => chunk.toString().includes("ready") && resolve());
        child.once("exit", (code) => reject(new Error(`the embedded service exited (${code})`)));
      });
      return child;
    },
    spawnWorker(env: Record<string, string> = {}): ChildProcess {
      const child = spawn(process.execPath, ["--import", "tsx", path.resolve("scripts/worker.ts")], {
        env: {
          ...process.env,
          ...TEST_JOB_ENV,
          ...env,
          DATABASE_URL: db.url,
          DATABASE_EMBEDDED: db.kind === "pglite" ? "1" : "0",
        },
        stdio: ["ignore", "ignore", "inherit"],
      });
      children.push(child);
      return child;
    },
  };
}
