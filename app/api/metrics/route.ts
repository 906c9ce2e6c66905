import { publicRoute } from "@/lib/adapters/public-route";
import { AppError } from "@/lib/errors/app-error";
import { refreshDatabaseGauges } from "@/lib/observability/database-gauges";
import { metrics } from "@/lib/observability/metrics";
import { metricsTokenMatches } from "@/lib/observability/metrics-token";

// Prometheus scrape target, for a holder of METRICS_TOKEN only: anyone else (or everyone, when
// the token is unset) gets the 404 of a route that does not exist.
export const GET = publicRoute({ name: "metrics" }, async (request) => {
  if (!metricsTokenMatches(request.headers)) throw new AppError("not_found");
  await refreshDatabaseGauges();
  const { registry } = metrics();
  return new Response(await registry.metrics(), {
    headers: { "Content-Type": registry.contentType, "Cache-Control": "no-store" },
  });
});
