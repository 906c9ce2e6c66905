import "server-only";
import type { z } from "zod";
import { getClaims } from "@/lib/auth/session";
import { AppError } from "@/lib/errors/app-error";
import { clientIp } from "@/lib/http/client-ip";
import { publicRoute, type PublicRouteOptions, type RouteContext } from "./public-route";
import type { UserContext } from "./user-action";

/**
 * A route handler for a signed-in account that need not be in a workspace (the step-up): the
 * path parameters, the session (its version checked; 401 without one), then `fn`, which opens its
 * own flow; errors mapped as for every route (publicRoute's mapping).
 */
export function userRoute<P extends z.ZodType = z.ZodType<Record<string, never>>>(
  options: PublicRouteOptions<P>,
  fn: (request: Request, params: z.output<P>, ctx: UserContext) => Promise<Response>,
): (request?: Request, context?: RouteContext) => Promise<Response> {
  return publicRoute(options, async (request, params) => {
    const claims = await getClaims();
    if (!claims) throw new AppError("unauthenticated");
    return fn(request, params, { claims, userId: claims.sub, ip: clientIp(request.headers) });
  });
}
