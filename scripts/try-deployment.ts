/**
 * A trial of deploy/ on this machine (docs/deployment.md "What was tried here"), for a host without
 * systemd as PID 1: `npx tsx scripts/try-deployment.ts`. A primary, a streaming replica and PgBouncer
 * (tests/helpers), deploy/crm.env.example filled in with them, then each unit's ExecStart run with
 * the unit's Environment= lines and that file (two crm-web@, one crm-worker@, on free ports; DATA_DIR
 * in a temp dir instead of /var/lib/crm), nginx (apt-get install nginx) with deploy/nginx/crm.conf
 * on a free port in front of the two web processes: `nginx -t`, a few requests, and form posts with
 * a forged X-Forwarded-For whose stored address must be the one nginx saw. Prints what it sees.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startReplicaPair } from "../tests/helpers/replica";
import { freePort, startPgBouncer } from "../tests/helpers/pgbouncer";
import { connect } from "../lib/db/client";
import { createForm } from "../tests/helpers/forms";
import { createWorkspace } from "../tests/helpers/factories";

const dir = mkdtempSync(path.join(tmpdir(), "try-deployment-"));
const [web1, web2, worker, proxy] = [await freePort(), await freePort(), await freePort(), await freePort()];

function unit(file: string, instance: string, envFile: string) {
  const text = readFileSync(file, "utf8").replaceAll("%i", instance);
  const env: Record<string, string> = {};
  for (const line of readFileSync(envFile, "utf8").split("\n")) {
    const m = line.match(/^([A-Z_][A-Z0-9_]*)=(.*)$/);
    if (m) env[m[1]] = m[2];
  }
  for (const m of text.matchAll(/^Environment=([A-Z_]+)=(.*)$/gm)) env[m[1]] = m[2];
  if (env.DATA_DIR) env.DATA_DIR = path.join(dir, path.basename(env.DATA_DIR));
  const exec = text.match(/^ExecStart=(.*)$/m)![1].split(/\s+/);
  return { env, exec };
}

const pair = await startReplicaPair({ database: "crm" });
const bouncer = await startPgBouncer(pair.primary.url("crm"));
const children: ChildProcess[] = [];
try {
  const example = readFileSync("deploy/crm.env.example", "utf8")
    .replace(/^DATABASE_URL=.*$/m, `DATABASE_URL=${bouncer.url}?pgbouncer=true`)
    .replace(/^DATABASE_DIRECT_URL=.*$/m, `DATABASE_DIRECT_URL=${pair.primary.url("crm")}`)
    .replace(/^#DATABASE_READ_URL=.*$/m, `DATABASE_READ_URL=${pair.replica.url("crm")}`)
    .replace(/^APP_URL=.*$/m, `APP_URL=http://localhost:${proxy}`)
    .replace(/^AUTH_SECRET=.*$/m, "AUTH_SECRET=trial-auth-secret-0123456789abcdef0123456789")
    .replace(/^METRICS_TOKEN=.*$/m, "METRICS_TOKEN=trial-metrics-token-0123456789");
  writeFileSync(`${dir}/crm.env`, example);
  const start = (file: string, instance: string) => {
    const { env, exec } = unit(file, instance, `${dir}/crm.env`);
    console.log(`${file}@${instance}: ${exec.join(" ")} with ${Object.keys(env).join(",")}`);
    const child = spawn(exec[0], exec.slice(1), {
      env: { PATH: process.env.PATH!, HOME: "/tmp", ...env } as unknown as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    child.stdout!.on("data", (c) =>
      process.stdout.write(
        `[${instance}] ${String(c)
          .split("\n")
          .filter((l) => !l.startsWith("{"))
          .join("\n")}`,
      ),
    );
    child.stderr!.on("data", (c) => process.stdout.write(`[${instance} err] ${c}`));
    children.push(child);
  };
  start("deploy/systemd/crm-web@.service", String(web1));
  start("deploy/systemd/crm-web@.service", String(web2));
  start("deploy/systemd/crm-worker@.service", String(worker));
  const wait = async (url: string) => {
    for (let i = 0; i < 240; i++) {
      try {
        if ((await fetch(url)).ok) return;
      } catch {}
      await new Promise((r) => setTimeout(r, 500));
    }
    throw new Error(`${url} never ready`);
  };
  await Promise.all([
    wait(`http://127.0.0.1:${web1}/api/ready`),
    wait(`http://127.0.0.1:${web2}/api/ready`),
    wait(`http://127.0.0.1:${worker}/ready`),
  ]);
  console.log("units up");
  writeFileSync(
    `${dir}/crm.conf`,
    readFileSync("deploy/nginx/crm.conf", "utf8")
      .replace("127.0.0.1:3000", `127.0.0.1:${web1}`)
      .replace("127.0.0.1:3001", `127.0.0.1:${web2}`)
      .replace("listen 80;", `listen ${proxy};`)
      .replace("listen [::]:80;", ""),
  );
  writeFileSync(
    `${dir}/nginx.conf`,
    `pid ${dir}/nginx.pid;\nerror_log ${dir}/error.log;\nevents {}\nhttp {\n  log_format up '$request $status $upstream_addr';\n  access_log ${dir}/access.log up;\n  include ${dir}/crm.conf;\n}\n`,
  );
  const t = spawn("nginx", ["-t", "-c", `${dir}/nginx.conf`], { stdio: "inherit" });
  await new Promise((r) => t.once("exit", r));
  const n = spawn("nginx", ["-c", `${dir}/nginx.conf`], { stdio: "inherit" });
  await new Promise((r) => n.once("exit", r));
  for (const path of ["/api/health", "/api/ready", "/sign-in", "/api/metrics"]) {
    const res = await fetch(`http://127.0.0.1:${proxy}${path}`);
    console.log(`nginx ${path}: ${res.status} ${path === "/api/ready" ? await res.text() : ""}`);
  }
  const withToken = await fetch(`http://127.0.0.1:${web1}/api/metrics`, {
    headers: { authorization: "Bearer trial-metrics-token-0123456789" },
  });
  console.log(`direct /api/metrics with token: ${withToken.status}`);
  // a visitor who writes their own X-Forwarded-For: the stored address is the one nginx saw
  const sql = connect(pair.primary.url("crm"), { max: 1 });
  const ws = await createWorkspace(sql);
  const form = await createForm(sql, ws.id, { require_verification: false });
  for (let i = 0; i < 4; i++) {
    const res = await fetch(`http://127.0.0.1:${proxy}/api/forms/${form.id}`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": "6.6.6.6" },
      body: JSON.stringify({ email: `visitor${i}@example.test` }),
    });
    console.log(`form post via nginx: ${res.status}`);
  }
  console.log(await sql`select ip_address::text from form_submissions where form_id = ${form.id}`);
  await sql.end();
  console.log(readFileSync(`${dir}/access.log`, "utf8").split("\n").slice(-6).join("\n"));
} finally {
  spawn("nginx", ["-c", `${dir}/nginx.conf`, "-s", "stop"]);
  for (const c of children)
    try {
      process.kill(-c.pid!, "SIGTERM");
    } catch {}
  await new Promise((r) => setTimeout(r, 5000));
  for (const c of children)
    try {
      process.kill(-c.pid!, "SIGKILL");
    } catch {}
  await bouncer.stop();
  await pair.stop();
  rmSync(dir, { recursive: true, force: true });
}
process.exit(0);
