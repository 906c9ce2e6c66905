import { unstable_rethrow } from "next/navigation";
import type { z } from "zod";
import { bearerToken, serviceKeyMatches } from "@/lib/auth/service-key";
import type { Claims } from "@/lib/db/doors";
import { AppError } from "@/lib/errors/app-error";
import { observeRequest } from "@/lib/observability/observe-request";
import type { Role } from "@/lib/workspaces/list-memberships";
import type { RouteContext } from "./public-route";
import { routeErrorResponse } from "./route-errors";

export type ServiceCaller = { via: "service_key" } | { via: "member"; claims: Claims };

export interface ServiceRouteOptions<Q extends z.ZodType> {
  name: string;
  /** the query string's schema; a 400 with its first message when it does not parse */
  query?: Q;
  /**
   * Also accept a signed-in member with one of these roles in the workspace the query names
   * (`workspace_id`), when the request comes from this site (a page of the app, or typed in the
   * address bar: Sec-Fetch-Site same-origin or none; a cross-site GET carries a SameSite=Lax
   * cookie, so anything else is refused), who meets the workspace's two-factor requirement and
   * has stepped up (lib/two-factor/step-up.ts).
   */
  members?: { roles: readonly Role[]; refusal: string; anonymous: string };
}

/**
 * The one way an admin route runs (docs/decisions.md, "Payment backfills"): `Authorization: Bearer
 * <SERVICE_API_KEY>`, or a member as `members` allows; then `fn` (which runs as the service), errors mapped
 * as for every route.
 */
export function serviceRoute<Q extends z.ZodType = z.ZodType<Record<string, never>>>(
  options: ServiceRouteOptions<Q>,
  fn: (request: Request, query: z.output<Q>, caller: ServiceCaller) => Promise<Response>,
): (request: Request, context?: RouteContext) => Promise<Response> {
  return async (request) =>
    observeRequest(options.name, request, async () => {
      try {
        let query = {} as z.output<Q>;
        if (options.query) {
          const parsed = options.query.safeParse(Object.fromEntries(new URL(request.url).searchParams));
          if (!parsed.success) throw new AppError("invalid", parsed.error.issues[0]?.message);
          query = parsed.data;
        }
        const caller = await authorize(request, options, query as { workspace_id?: string });
        return await fn(request, query, caller);
      } catch (error) {
        unstable_rethrow(error);
        return routeErrorResponse(options.name, request, error);
      }
    });
}

async function authorize(
  request: Request,
  options: ServiceRouteOptions<z.ZodType>,
  query: { workspace_id?: string },
): Promise<ServiceCaller> {
  const token = bearerToken(request.headers.get("authorization"));
  if (token) {
    if (serviceKeyMatches(token)) return { via: "service_key" };
    throw new AppError("unauthenticated", "The service key is not valid.");
  }
  const members = options.members;
  if (!members) throw new AppError("unauthenticated", "Send Authorization: Bearer <SERVICE_API_KEY>.");
  const site = request.headers.get("sec-fetch-site");
  if (site !== "same-origin" && site !== "none")
    throw new AppError(
      "forbidden",
      "Open this address from the dashboard, or send Authorization: Bearer <service key>.",
    );
  // loaded here, not at the top: a machine-only route (cron) does not pull in the cookie session
  const { signedIn } = await import("@/lib/auth/session");
  if (!(await signedIn())) throw new AppError("unauthenticated", members.anonymous);
  if (!query.workspace_id) throw new AppError("forbidden", members.refusal);
  // as every member route: the session's version, the membership of the workspace named, its
  // two-factor requirement, the role and a fresh step-up (docs/decisions.md "A second factor")
  const { memberDoor } = await import("./member-door");
  const { open, admit } = await memberDoor(
    {
      roles: members.roles,
      forbidden: members.refusal,
      stepUp: true,
      door: "service",
      workspaceId: query.workspace_id,
    },
    "refuse",
    request,
  );
  const { claims } = await open(admit);
  return { via: "member", claims };
}
