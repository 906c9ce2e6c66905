import { z } from "zod";
import { publicRoute } from "@/lib/adapters/public-route";
import { AppError } from "@/lib/errors/app-error";
import { readRequestBody } from "@/lib/events/rsvp/read-request-body";
import { clientIp } from "@/lib/http/client-ip";
import { uuidSchema } from "@/lib/ids/uuid";
import { requestPortalLinkFlow } from "@/lib/portal/flows/portal-flows";
import { portalLinkRequestSchema } from "@/lib/portal/schemas";

/**
 * POST /api/portal/{workspace_id}/link with `{"email"}` (DESIGN.md section 9; docs/api.md, "Portal"):
 * 202 whatever the address (a contact of the workspace with it is emailed a single-use sign-in link);
 * 429 when this IP asked too often; 400 for a body without an email. The link email's language is
 * `?lang=`, then the contact's own, then Accept-Language, then the workspace's.
 */
export const POST = publicRoute(
  { name: "portal link", params: z.object({ workspaceId: uuidSchema }) },
  async (request, { workspaceId }) => {
    const body = await readRequestBody(request);
    if ("error" in body) throw body.error;
    const parsed = portalLinkRequestSchema.safeParse(body.data);
    if (!parsed.success) throw new AppError("invalid", "Give an email address.", { field: "email" });
    const locale = {
      lang: new URL(request.url).searchParams.get("lang"),
      acceptLanguage: request.headers.get("accept-language"),
    };
    const ip = clientIp(request.headers);
    const result = await requestPortalLinkFlow({ workspaceId, email: parsed.data.email, ip, locale });
    if ("error" in result) throw result.error;
    return Response.json({ success: true }, { status: 202 });
  },
);
