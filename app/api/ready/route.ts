import { publicRoute } from "@/lib/adapters/public-route";
import { webReadiness } from "@/lib/observability/readiness";

// Readiness for a load balancer (GET /api/health stays the no-database liveness check).
export const GET = publicRoute({ name: "ready" }, async () => {
  const { ready, checks } = await webReadiness();
  return Response.json(
    { ready, checks },
    { status: ready ? 200 : 503, headers: { "Cache-Control": "no-store" } },
  );
});
