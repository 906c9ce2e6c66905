// ad-hoc trial of deploy/: the units' ExecStart with the units' environment, nginx in front
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { startReplicaPair } from "./tests/helpers/replica";
import { startPgBouncer } from "./tests/helpers/pgbouncer";
import { connect } from "./lib/db/client";
import { createForm } from "./tests/helpers/forms";
import { createWorkspace } from "./tests/helpers/factories";

function unit(file: string, instance: string, envFile: string) {
  const text = readFileSync(file, "utf8").replaceAll("%i", instance);
  const env: Record<string, string> = {};
  for (const line of readFileSync(envFile, "utf8").split("\n")) {
    const m = line.match(/^([A-Z_][A-Z0-9_]*)=(.*)$/);
    if (m) env[m[1]] = m[2];
  }
  for (const m of text.matchAll(/^Environment=([A-Z_]+)=(.*)$/gm)) env[m[1]] = m[2];
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
    .replace(/^APP_URL=.*$/m, "APP_URL=http://localhost:8204")
    .replace(/^AUTH_SECRET=.*$/m, "AUTH_SECRET=trial-auth-secret-0123456789abcdef0123456789")
    .replace(/^METRICS_TOKEN=.*$/m, "METRICS_TOKEN=trial-metrics-token-0123456789");
  writeFileSync("/tmp/replica-try/crm.env", example);
  mkdirSync("/var/lib/crm", { recursive: true });
  const start = (file: string, instance: string) => {
    const { env, exec } = unit(file, instance, "/tmp/replica-try/crm.env");
    console.log(`${file}@${instance}: ${exec.join(" ")} with ${Object.keys(env).join(",")}`);
    const child = spawn(exec[0], exec.slice(1), { env: { PATH: process.env.PATH!, HOME: "/tmp", ...env }, stdio: ["ignore", "pipe", "pipe"], detached: true });
    child.stdout!.on("data", (c) => process.stdout.write(`[${instance}] ${String(c).split("\n").filter((l) => !l.startsWith("{")).join("\n")}`));
    child.stderr!.on("data", (c) => process.stdout.write(`[${instance} err] ${c}`));
    children.push(child);
  };
  start("deploy/systemd/crm-web@.service", "3204");
  start("deploy/systemd/crm-web@.service", "3205");
  start("deploy/systemd/crm-worker@.service", "9204");
  const wait = async (url: string) => {
    for (let i = 0; i < 240; i++) {
      try { if ((await fetch(url)).ok) return; } catch {}
      await new Promise((r) => setTimeout(r, 500));
    }
    throw new Error(`${url} never ready`);
  };
  await Promise.all([wait("http://127.0.0.1:3204/api/ready"), wait("http://127.0.0.1:3205/api/ready"), wait("http://127.0.0.1:9204/ready")]);
  console.log("units up");
  writeFileSync("/tmp/replica-try/crm.conf", readFileSync("deploy/nginx/crm.conf", "utf8").replace("127.0.0.1:3000", "127.0.0.1:3204").replace("127.0.0.1:3001", "127.0.0.1:3205").replace("listen 80;", "listen 8204;").replace("listen [::]:80;", ""));
  writeFileSync("/tmp/replica-try/nginx.conf", `pid /tmp/replica-try/nginx.pid;\nerror_log /tmp/replica-try/error.log;\nevents {}\nhttp {\n  log_format up '$request $status $upstream_addr';\n  access_log /tmp/replica-try/access.log up;\n  include /tmp/replica-try/crm.conf;\n}\n`);
  const t = spawn("nginx", ["-t", "-c", "/tmp/replica-try/nginx.conf"], { stdio: "inherit" });
  await new Promise((r) => t.once("exit", r));
  const n = spawn("nginx", ["-c", "/tmp/replica-try/nginx.conf"], { stdio: "inherit" });
  await new Promise((r) => n.once("exit", r));
  for (const path of ["/api/health", "/api/ready", "/sign-in", "/api/metrics"]) {
    const res = await fetch(`http://127.0.0.1:8204${path}`);
    console.log(`nginx ${path}: ${res.status} ${path === "/api/ready" ? await res.text() : ""}`);
  }
  const withToken = await fetch(`http://127.0.0.1:3204/api/metrics`, { headers: { authorization: "Bearer trial-metrics-token-0123456789" } });
  console.log(`direct /api/metrics with token: ${withToken.status}`);
  // a visitor who writes their own X-Forwarded-For: the stored address is the one nginx saw
  const sql = connect(pair.primary.url("crm"), { max: 1 });
  const ws = await createWorkspace(sql);
  const form = await createForm(sql, ws.id, { require_verification: false });
  for (let i = 0; i < 4; i++) {
    const res = await fetch(`http://127.0.0.1:8204/api/forms/${form.id}`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": "6.6.6.6" },
      body: JSON.stringify({ email: `visitor${i}@example.test` }),
    });
    console.log(`form post via nginx: ${res.status}`);
  }
  console.log(await sql`select ip_address::text from form_submissions where form_id = ${form.id}`);
  await sql.end();
  console.log(readFileSync("/tmp/replica-try/access.log", "utf8").split("\n").slice(-6).join("\n"));
} finally {
  spawn("nginx", ["-c", "/tmp/replica-try/nginx.conf", "-s", "stop"]);
  for (const c of children) try { process.kill(-c.pid!, "SIGTERM"); } catch {}
  await new Promise((r) => setTimeout(r, 5000));
  for (const c of children) try { process.kill(-c.pid!, "SIGKILL"); } catch {}
  await bouncer.stop();
  await pair.stop();
}
process.exit(0);
