import { z } from "zod";
import { publicRoute } from "@/lib/adapters/public-route";
import { appUrl } from "@/lib/config";
import { withService } from "@/lib/db/doors";
import { AppError } from "@/lib/errors/app-error";
import { jsonError } from "@/lib/http/error-envelope";
import { isFormPost, readRequestBody } from "@/lib/events/rsvp/read-request-body";
import { claimOfferAndConfirm } from "@/lib/events/waitlist/claim";
import { isUuid } from "@/lib/ids/uuid";
import { isLocale } from "@/lib/i18n/locales";
import { withLang } from "@/lib/i18n/recipient-locale";

const params = z.object({ eventId: z.string() });

const formPost = (request: Request, eventId: string | undefined): eventId is string =>
  isFormPost(request) && eventId !== undefined && isUuid(eventId);

/** The claim page's language (its form posts to `?lang=`), handed on to the page it redirects to. */
const langOf = (request: Request): string | null => {
  const lang = new URL(request.url).searchParams.get("lang");
  return isLocale(lang) ? lang : null;
};

/**
 * POST /api/rsvp/{event_id}/claim with `token` (docs/decisions.md, "A waitlist that fills itself"):
 * claims a waitlist offer. JSON: 200 `{"success": true, "status": "registered"}`; a wrong token 404
 * `not_found`, a used one 409 `offer_used`, an expired one 410 `offer_expired`, nothing changed. The
 * claim page's form post is redirected: to the RSVP page on success, back to the claim page (without
 * the token) with `?error=` the code otherwise, each with the page's `?lang=`.
 */
export const POST = publicRoute(
  {
    name: "rsvp-claim",
    params,
    refusal: (error, request, found) => {
      if (!formPost(request, found?.eventId)) return jsonError(error);
      return Response.redirect(
        withLang(`${appUrl()}/rsvp/${found.eventId}/claim?error=${error.code}`, langOf(request)),
        303,
      );
    },
  },
  async (request, { eventId }) => {
    if (!isUuid(eventId)) throw new AppError("not_found");
    const body = await readRequestBody(request);
    if ("error" in body) throw body.error;
    const token = typeof body.data.token === "string" ? body.data.token : "";
    const result = await withService((db) => claimOfferAndConfirm(db, { eventId, token }));
    if ("error" in result) throw result.error;
    if (formPost(request, eventId)) {
      return Response.redirect(withLang(`${appUrl()}/rsvp/${eventId}?status=claimed`, langOf(request)), 303);
    }
    return Response.json({ success: true, status: "registered" });
  },
);
