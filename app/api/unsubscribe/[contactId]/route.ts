import { z } from "zod";
import { publicRoute } from "@/lib/adapters/public-route";
import { withService } from "@/lib/db/doors";
import { unsubscribeContact } from "@/lib/consent/unsubscribe-contact";
import { clientIp } from "@/lib/http/client-ip";

/**
 * RFC 8058 one-click unsubscribe: mail clients POST `List-Unsubscribe=One-Click` to the
 * List-Unsubscribe URL ({tracking_url}/unsubscribe/{contact_id}); proxy.ts rewrites that POST here.
 * A malformed id is the same 404 "Unknown contact." (loadConsentState checks it without a query).
 */
export const POST = publicRoute(
  { name: "one-click unsubscribe", params: z.object({ contactId: z.string() }) },
  async (request, { contactId }) => {
    const result = await withService((db) =>
      unsubscribeContact(db, { contactId, flow: "unsubscribe_link", ip: clientIp(request.headers) }),
    );
    if ("error" in result) throw result.error;
    return Response.json({ unsubscribed: true });
  },
);
