import "server-only";
import { getClaims } from "@/lib/auth/session";
import { withUser } from "@/lib/db/doors";
import { bearerToken, serviceKeyMatches } from "@/lib/auth/service-key";

export type BackfillCaller =
  { ok: true; via: "service_key" | "member" } | { ok: false; status: 401 | 403; error: string };

/**
 * DESIGN 5: the backfill endpoints accept a signed-in owner or admin of the workspace, or
 * `Authorization: Bearer <SERVICE_API_KEY>`. The backfill itself then runs as the service.
 * A cookie caller must come from this site (attack 8): a GET is sent cross-site with a
 * SameSite=Lax cookie, so the browser's Sec-Fetch-Site must say `same-origin` (a page of this
 * app) or `none` (typed in the address bar); anything else, or no such header, is refused.
 */
export async function authorizeBackfill(request: Request, workspaceId: string): Promise<BackfillCaller> {
  const token = bearerToken(request.headers.get("authorization"));
  if (token) {
    return serviceKeyMatches(token)
      ? { ok: true, via: "service_key" }
      : { ok: false, status: 401, error: "The service key is not valid." };
  }
  const site = request.headers.get("sec-fetch-site");
  if (site !== "same-origin" && site !== "none")
    return {
      ok: false,
      status: 403,
      error: "Open this address from the dashboard, or send Authorization: Bearer <service key>.",
    };
  const claims = await getClaims();
  if (!claims)
    return {
      ok: false,
      status: 401,
      error: "Sign in as an owner or admin, or send Authorization: Bearer <service key>.",
    };
  const role = await withUser(claims, async (db) => {
    const [row] = await db`
      select role from public.workspace_members where workspace_id = ${workspaceId} and user_id = auth.uid()`;
    return row?.role as string | undefined;
  });
  if (role !== "owner" && role !== "admin")
    return { ok: false, status: 403, error: "Only owners and admins of this workspace can run backfills." };
  return { ok: true, via: "member" };
}
