import { z } from "zod";
import { publicRoute } from "@/lib/adapters/public-route";
import { appUrl } from "@/lib/config";
import { uuidSchema } from "@/lib/ids/uuid";
import { withPortalSession } from "@/lib/portal/flows/portal-flows";
import { portalExport } from "@/lib/portal/portal-export";
import { portalPath } from "@/lib/portal/portal-links";

/**
 * GET /portal/{workspace_id}/export: the signed-in contact's own data (GDPR article 15) as the
 * privacy export's ZIP. Without a portal session of this workspace: back to its sign-in page.
 */
export const GET = publicRoute(
  { name: "portal export", params: z.object({ workspaceId: uuidSchema }) },
  async (_request, { workspaceId }) => {
    const file = await withPortalSession(workspaceId, (db, session, ip) => portalExport(db, session, ip));
    if (!file) return Response.redirect(`${appUrl()}${portalPath(workspaceId, "", { expired: "1" })}`, 303);
    return new Response(Buffer.from(file.zip), {
      headers: {
        "Content-Type": "application/zip",
        "Content-Disposition": `attachment; filename="${file.fileName}"`,
        "Cache-Control": "no-store",
      },
    });
  },
);
