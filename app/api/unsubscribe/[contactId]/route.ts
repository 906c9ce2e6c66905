import { z } from "zod";
import { publicRoute } from "@/lib/adapters/public-route";
import { withService } from "@/lib/db/doors";
import { unsubscribeByLink } from "@/lib/consent/topic-consent";
import { clientIp } from "@/lib/http/client-ip";

/**
 * RFC 8058 one-click unsubscribe: mail clients POST `List-Unsubscribe=One-Click` to the
 * List-Unsubscribe URL ({tracking_url}/unsubscribe/{contact_id}); proxy.ts rewrites that POST here.
 * A malformed id is the same 404 "Unknown contact." (loadConsentState checks it without a query).
 * The URL of a broadcast sent to a subscription topic carries `?topic=`: the POST leaves that
 * topic only, looked up in the contact's own workspace (docs/decisions.md, "Subscription topics").
 */
export const POST = publicRoute(
  { name: "one-click unsubscribe", params: z.object({ contactId: z.string() }) },
  async (request, { contactId }) => {
    const topicId = new URL(request.url).searchParams.get("topic");
    const result = await withService((db) =>
      unsubscribeByLink(db, { contactId, topicId, ip: clientIp(request.headers) }),
    );
    if ("error" in result) throw result.error;
    return Response.json({ unsubscribed: true });
  },
);
