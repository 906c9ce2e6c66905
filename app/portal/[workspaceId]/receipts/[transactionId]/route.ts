import { z } from "zod";
import { publicRoute } from "@/lib/adapters/public-route";
import { appUrl } from "@/lib/config";
import { AppError } from "@/lib/errors/app-error";
import { clientIp } from "@/lib/http/client-ip";
import { uuidSchema } from "@/lib/ids/uuid";
import { withPortalSession } from "@/lib/portal/flows/portal-flows";
import { portalPath } from "@/lib/portal/portal-links";
import { sessionTranslator } from "@/lib/portal/portal-locale";
import { portalReceipt } from "@/lib/portal/purchases";

/**
 * GET /portal/{workspace_id}/receipts/{transaction_id}: a receipt of one of the signed-in contact's
 * purchases, as a text file in their language. Another contact's or workspace's purchase is 404.
 */
export const GET = publicRoute(
  {
    name: "portal receipt",
    params: z.object({ workspaceId: uuidSchema, transactionId: z.string().max(100) }),
  },
  async (request, { workspaceId, transactionId }) => {
    const ip = clientIp(request.headers);
    const result = await withPortalSession(workspaceId, (db, session) => {
      const t = sessionTranslator(session, {
        lang: new URL(request.url).searchParams.get("lang"),
        acceptLanguage: request.headers.get("accept-language"),
      });
      return portalReceipt(db, session, { transactionId, ip, t });
    });
    if (!result) return Response.redirect(`${appUrl()}${portalPath(workspaceId, "", { expired: "1" })}`, 303);
    if ("error" in result) throw new AppError("not_found");
    return new Response(result.data.text, {
      headers: {
        "Content-Type": "text/plain; charset=utf-8",
        "Content-Disposition": `attachment; filename="${result.data.fileName}"`,
        "Cache-Control": "no-store",
      },
    });
  },
);
