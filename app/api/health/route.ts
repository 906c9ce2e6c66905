import { publicRoute } from "@/lib/adapters/public-route";

// The no-database route the benchmarks compare every endpoint against.
export const GET = publicRoute({ name: "health" }, async () => Response.json({ ok: true }));
