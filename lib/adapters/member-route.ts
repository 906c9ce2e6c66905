import "server-only";
import { unstable_rethrow } from "next/navigation";
import type { z } from "zod";
import { currentMember } from "@/lib/auth/context";
import type { AuditAction } from "@/lib/audit/audit-actions";
import { withUser, type Db } from "@/lib/db/doors";
import { AppError } from "@/lib/errors/app-error";
import { observeRequest } from "@/lib/observability/observe-request";
import { clientIp } from "@/lib/http/client-ip";
import type { Role } from "@/lib/workspaces/list-memberships";
import { stepUpFresh } from "@/lib/two-factor/step-up";
import { AuditNote, writeAudit } from "./audit-note";
import type { ActionContext } from "./member-action";
import { parseParams, type RouteContext } from "./public-route";
import { routeErrorResponse } from "./route-errors";

export interface MemberRouteOptions<P extends z.ZodType> {
  name: string;
  params?: P;
  roles?: readonly Role[];
  forbidden?: string;
  /** needs a fresh password or code (memberAction's `stepUp`): 403 `step_up_required` */
  stepUp?: boolean;
  /** the audited action (downloads of personal data are audited too), or false */
  audit: AuditAction | false;
  /**
   * After the commit, for a response that is ok: what the system records in a transaction of
   * its own (a log members may not write), as memberAction's `after`.
   */
  after?: (params: z.output<P>, ctx: ActionContext) => Promise<void>;
}

/**
 * The one way a cookie-authenticated route handler runs (downloads, uploads from the
 * dashboard): the member (401 without a session, 403 without a workspace or the role), the
 * path parameters (404 when malformed), then `fn` in the member's transaction with its audit
 * row, errors mapped as for every route.
 */
export function memberRoute<P extends z.ZodType = z.ZodType<Record<string, never>>>(
  options: MemberRouteOptions<P>,
  fn: (db: Db, request: Request, params: z.output<P>, ctx: ActionContext) => Promise<Response>,
): (request: Request, context?: RouteContext) => Promise<Response> {
  return async (request, context) =>
    observeRequest(options.name, request, async () => {
      try {
        const member = await currentMember();
        if (member === undefined) throw new AppError("unauthenticated");
        if (member === null) throw new AppError("forbidden", "Join or create a workspace first.");
        if (member.twoFactorMissing)
          throw new AppError(
            "forbidden",
            "This workspace requires two-factor authentication. Turn it on first.",
          );
        if (options.roles && !options.roles.includes(member.workspace.role))
          throw new AppError("forbidden", options.forbidden);
        if (options.stepUp && !stepUpFresh(member.claims)) throw new AppError("step_up_required");
        const params = (await parseParams(options.params, context)) as z.output<P>;
        const ctx: ActionContext = {
          ...member,
          workspaceId: member.workspace.workspaceId,
          audit: new AuditNote(),
          prepared: undefined,
        };
        const response = await withUser(member.claims, async (db) => {
          const response = await fn(db, request, params, ctx);
          if (options.audit && response.ok)
            await writeAudit(db, ctx, options.audit, { input: params, ip: clientIp(request.headers) });
          return response;
        });
        if (response.ok) await options.after?.(params, ctx);
        return response;
      } catch (error) {
        unstable_rethrow(error);
        return routeErrorResponse(options.name, request, error);
      }
    });
}
