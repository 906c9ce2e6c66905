import { z } from "zod";
import { publicRoute } from "@/lib/adapters/public-route";
import { appUrl } from "@/lib/config";
import { withService } from "@/lib/db/doors";
import { resubscribeContact } from "@/lib/consent/resubscribe-contact";
import { clientIp } from "@/lib/http/client-ip";

/**
 * Spec 4.6: public re-subscribe. Redirects to /subscribe/confirmed, or to /subscribe/error with a
 * reason code from a fixed set (the page owns the text), so nothing the caller sends is echoed.
 * A malformed id is the same not_found redirect (loadConsentState checks it without a query), and
 * so is a manual block without the link's signature (`?sig=`, docs/decisions.md "Signed recipient links").
 */
export const GET = publicRoute(
  { name: "re-subscribe", params: z.object({ contactId: z.string() }) },
  async (request, { contactId }) => {
    const signature = new URL(request.url).searchParams.get("sig");
    const result = await withService((db) =>
      resubscribeContact(db, { contactId, ip: clientIp(request.headers), signature }),
    );
    const target = "error" in result ? `/subscribe/error?reason=${result.reason}` : "/subscribe/confirmed";
    return Response.redirect(`${appUrl()}${target}`, 303);
  },
);
