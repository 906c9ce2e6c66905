/**
 * The app as the end-to-end tests see it: a fresh database (a new database on the real
 * server when DATABASE_URL is set, else a fresh embedded one), then `npm start`.
 * Provider fakes are started here and the app is pointed at them.
 */
import { spawn } from "node:child_process";
import { rm } from "node:fs/promises";
import path from "node:path";
import { connect } from "../lib/db/client";
import { startFakes } from "../tests/fakes";

const port = process.env.PORT ?? "3100";

async function freshDatabaseUrl(): Promise<string | undefined> {
  const base = process.env.DATABASE_URL;
  if (!base) return undefined;
  const name = `${new URL(base).pathname.slice(1) || "postgres"}_e2e_${port}`;
  const admin = connect(base, { max: 1 });
  await admin.unsafe(`drop database if exists "${name}" with (force)`);
  await admin.unsafe(`create database "${name}"`);
  await admin.end();
  const u = new URL(base);
  u.pathname = `/${name}`;
  return u.toString();
}

async function main() {
  const dataDir = path.join(process.cwd(), ".data", `e2e-${port}`);
  await rm(dataDir, { recursive: true, force: true });
  const url = await freshDatabaseUrl();
  const fakes = await startFakes();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...fakes.env,
    DATA_DIR: dataDir,
    PORT: port,
    APP_URL: `http://localhost:${port}`,
    SEED_DEMO: "0",
    // the worker may deliver outbound webhooks to a receiver a spec runs on this machine (the
    // web server runs in production mode and still refuses such URLs in the endpoint form)
    WEBHOOKS_ALLOW_PRIVATE_DESTINATIONS: process.env.WEBHOOKS_ALLOW_PRIVATE_DESTINATIONS ?? "1",
    // a known address for the embedded database, so e2e tests can arrange data (tests/e2e/helpers/app-db.ts)
    EMBEDDED_DB_PORT: process.env.EMBEDDED_DB_PORT ?? String(Number(port) + 20000),
  };
  if (url) env.DATABASE_URL = url;
  else delete env.DATABASE_URL;
  const child = spawn("npx", ["tsx", "scripts/start.ts"], { stdio: "inherit", env });
  const stop = () => child.kill("SIGTERM");
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  child.on("exit", async (code) => {
    await fakes.stop();
    process.exit(code ?? 0);
  });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
