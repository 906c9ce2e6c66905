import "server-only";
import { unstable_rethrow } from "next/navigation";
import type { z } from "zod";
import type { AuditAction } from "@/lib/audit/audit-actions";
import type { Db } from "@/lib/db/doors";
import { AppError } from "@/lib/errors/app-error";
import { observeRequest } from "@/lib/observability/observe-request";
import type { Role } from "@/lib/workspaces/list-memberships";
import { writeAudit } from "./audit-note";
import type { ActionContext } from "./member-action";
import { memberDoor } from "./member-door";
import { parseParams, type RouteContext } from "./public-route";
import { routeAppError, routeErrorResponse } from "./route-errors";

export interface MemberRouteOptions<P extends z.ZodType> {
  name: string;
  params?: P;
  roles?: readonly Role[];
  forbidden?: string;
  /** needs a fresh password or code (memberAction's `stepUp`): 403 `step_up_required` */
  stepUp?: boolean;
  /** "service": `fn` runs in a service transaction, scoped by `ctx.workspaceId` (memberAction's `door`) */
  door?: "member" | "service";
  /** the audited action (downloads of personal data are audited too), or false */
  audit: AuditAction | false;
  /**
   * After the commit, for a response that is ok: what the system records in a transaction of
   * its own (a log members may not write), as memberAction's `after`.
   */
  after?: (params: z.output<P>, ctx: ActionContext) => Promise<void>;
}

/**
 * A route the browser is sent to (an OAuth provider's callback): every answer is a redirect (303).
 * `fn` runs after the member is admitted, outside any transaction (the flow it calls opens its
 * own: a provider is called between them), and returns where to send the browser; a refusal of
 * `fn` or of the role goes where `redirect` says. Without a session (or a workspace, or the
 * second factor the workspace requires) the browser goes where a page would send it.
 */
export interface MemberRedirectOptions<P extends z.ZodType> extends Omit<
  MemberRouteOptions<P>,
  "audit" | "after" | "stepUp"
> {
  redirect: (error: AppError) => string;
}

/**
 * The one way a cookie-authenticated route handler runs (downloads, uploads from the
 * dashboard): the member (401 without a session, 403 without a workspace or the role), the
 * path parameters (404 when malformed), then `fn`, in one transaction together with the
 * session's version check, the membership (memberDoor) and its audit row, errors mapped as for
 * every route. With `redirect`, a route that answers with redirects (MemberRedirectOptions).
 */
export function memberRoute<P extends z.ZodType = z.ZodType<Record<string, never>>>(
  options: MemberRedirectOptions<P>,
  fn: (request: Request, params: z.output<P>, ctx: ActionContext) => Promise<string>,
): (request: Request, context?: RouteContext) => Promise<Response>;
export function memberRoute<P extends z.ZodType = z.ZodType<Record<string, never>>>(
  options: MemberRouteOptions<P>,
  fn: (db: Db, request: Request, params: z.output<P>, ctx: ActionContext) => Promise<Response>,
): (request: Request, context?: RouteContext) => Promise<Response>;
export function memberRoute<P extends z.ZodType>(
  options: MemberRouteOptions<P> | MemberRedirectOptions<P>,
  fn:
    | ((request: Request, params: z.output<P>, ctx: ActionContext) => Promise<string>)
    | ((db: Db, request: Request, params: z.output<P>, ctx: ActionContext) => Promise<Response>),
): (request: Request, context?: RouteContext) => Promise<Response> {
  if ("redirect" in options)
    return redirectRoute(options, fn as (r: Request, p: z.output<P>, c: ActionContext) => Promise<string>);
  const work = fn as (db: Db, r: Request, p: z.output<P>, c: ActionContext) => Promise<Response>;
  return async (request, context) =>
    observeRequest(options.name, request, async () => {
      try {
        const { open, admit } = await memberDoor(options, "refuse", request);
        const params = (await parseParams(options.params, context)) as z.output<P>;
        const [ctx, response] = await open(async (db) => {
          const ctx = await admit(db);
          const response = await work(db, request, params, ctx);
          if (options.audit && response.ok)
            await writeAudit(db, ctx, options.audit, { input: params, ip: ctx.ip });
          return [ctx, response] as const;
        });
        if (response.ok) await options.after?.(params, ctx);
        return response;
      } catch (error) {
        unstable_rethrow(error);
        return routeErrorResponse(options.name, request, error);
      }
    });
}

function redirectRoute<P extends z.ZodType>(
  options: MemberRedirectOptions<P>,
  fn: (request: Request, params: z.output<P>, ctx: ActionContext) => Promise<string>,
): (request: Request, context?: RouteContext) => Promise<Response> {
  return async (request, context) =>
    observeRequest(options.name, request, async () => {
      let to: string;
      try {
        const { open, admit } = await memberDoor(options, "redirect", request);
        const params = (await parseParams(options.params, context)) as z.output<P>;
        const ctx = await open(admit);
        to = await fn(request, params, ctx);
      } catch (error) {
        unstable_rethrow(error); // the sign-in, workspace and enrolment redirects
        to = options.redirect(routeAppError(options.name, request, error));
      }
      return Response.redirect(to, 303);
    });
}
