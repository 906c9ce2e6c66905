/**
 * The floor under every HTTP ratio (docs/performance.md): what a Next.js route handler costs over a
 * plain `node:http` handler on this machine. Both answer the same small JSON with no
 * database, 32 connections, alternating rounds; the health route of `next start` is the
 * denominator of the other HTTP benchmarks, and this says how much of it is the framework.
 *
 *   DATABASE_URL=postgres://… npx tsx scripts/bench/floor.ts
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import autocannon from "autocannon";
import { ensureBuild, processTreeCpuMs, startNextServer, stopNextServer } from "./lib/next-server";

const PORT = Number(process.env.BENCH_FLOOR_PORT ?? 3272);
const CONNECTIONS = 32;
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function rate(url: string, duration = DURATION): Promise<{ rps: number; total: number }> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration });
  return { rps: result.requests.average, total: Math.max(1, result.requests.total) };
}

export default async function run(): Promise<void> {
  ensureBuild();
  // the plain handler runs in this process, as the load generator does: its CPU is not separable
  const plain = createServer((_req, res) => {
    res.writeHead(200, { "Content-Type": "application/json" });
    res.end(JSON.stringify({ status: "ok" }));
  });
  await new Promise<void>((resolve) => plain.listen(0, "127.0.0.1", resolve));
  const plainUrl = `http://127.0.0.1:${(plain.address() as AddressInfo).port}/`;
  const next = await startNextServer(PORT, { DATABASE_URL: process.env.DATABASE_URL });
  const nextUrl = `http://127.0.0.1:${PORT}/api/health`;
  try {
    await rate(plainUrl, 2);
    await rate(nextUrl, 3);
    const plainRates: number[] = [];
    const nextRates: number[] = [];
    const nextCpu: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      plainRates.push((await rate(plainUrl)).rps);
      const before = processTreeCpuMs(next.pid!);
      const measured = await rate(nextUrl);
      nextCpu.push((processTreeCpuMs(next.pid!) - before) / measured.total);
      nextRates.push(measured.rps);
    }
    const [p, n] = [median(plainRates), median(nextRates)];
    console.log(`\nfloor: ${CONNECTIONS} connections, median of ${ROUNDS} alternating ${DURATION}-s rounds`);
    console.table([
      { handler: "node:http, same JSON", "req/s": Math.round(p), "ratio to node:http": "1.00" },
      {
        handler: "next start, GET /api/health",
        "req/s": Math.round(n),
        "ratio to node:http": (n / p).toFixed(2),
        "server CPU ms/req": median(nextCpu).toFixed(2),
      },
    ]);
    console.log(
      "The other HTTP ratios are measured against the health route of next start, not against node:http:" +
        " this table says how much of that floor is the framework.",
    );
  } finally {
    await stopNextServer(next);
    await new Promise((resolve) => plain.close(resolve));
  }
}
