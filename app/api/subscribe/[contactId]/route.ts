import { appUrl } from "@/lib/config";
import { withService } from "@/lib/db/doors";
import { resubscribeContact } from "@/lib/consent/resubscribe-contact";
import { clientIp } from "@/lib/http/client-ip";

/**
 * Spec 4.6: public re-subscribe. Redirects to /subscribe/confirmed, or to /subscribe/error with a
 * reason code from a fixed set (the page owns the text), so nothing the caller sends is echoed.
 */
export async function GET(request: Request, { params }: { params: Promise<{ contactId: string }> }) {
  const { contactId } = await params;
  const result = await withService((db) =>
    resubscribeContact(db, { contactId, ip: clientIp(request.headers) }),
  );
  const target = "error" in result ? `/subscribe/error?reason=${result.error}` : "/subscribe/confirmed";
  return Response.redirect(`${appUrl()}${target}`, 303);
}
