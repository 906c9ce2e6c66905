import { ADMIN_ROLES, requireMember } from "@/lib/auth/context";
import { appUrl } from "@/lib/config";
import { withService } from "@/lib/db/doors";
import { completeTicketingConnection } from "@/lib/events/ticketing/complete-ticketing-connection";
import { enqueueTicketingSync } from "@/lib/events/ticketing/enqueue-ticketing-sync";

const back = (query: string) => Response.redirect(`${appUrl()}/settings/ticketing?${query}`, 303);

/**
 * GET /api/auth/ticketing/callback (spec 4.5): Eventbrite sends the member back here with
 * code and state. The state must be the one signed for this member's current workspace;
 * then the connection is completed and the first import is handed to the job engine.
 */
export async function GET(request: Request) {
  const url = new URL(request.url);
  if (url.searchParams.get("error")) return back("error=denied");
  const ctx = await requireMember();
  if (!ADMIN_ROLES.includes(ctx.workspace.role)) return back("error=forbidden");
  const workspaceId = ctx.workspace.workspaceId;
  // the service door: the token is service-only (attack 7); the flow checks the member's role
  const result = await withService((db) =>
    completeTicketingConnection(db, {
      workspaceId,
      userId: ctx.userId,
      code: url.searchParams.get("code") ?? "",
      state: url.searchParams.get("state") ?? "",
    }),
  );
  if ("error" in result) return back(`error=${result.error}`);
  await withService((db) => enqueueTicketingSync(db, workspaceId));
  return back("connected=1");
}
