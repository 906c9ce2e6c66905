import { z } from "zod";
import { publicRoute } from "@/lib/adapters/public-route";
import { withService } from "@/lib/db/doors";
import { appUrl } from "@/lib/config";
import { AppError } from "@/lib/errors/app-error";
import { jsonError } from "@/lib/http/error-envelope";
import { clientIp } from "@/lib/http/client-ip";
import { checkRateLimit } from "@/lib/rate-limit/check-rate-limit";
import { isFormPost, readRequestBody } from "@/lib/events/rsvp/read-request-body";
import { rsvpRefusal } from "@/lib/events/rsvp/rsvp-availability";
import { rsvpSchema } from "@/lib/events/rsvp/rsvp-schema";
import { submitRsvp } from "@/lib/events/rsvp/submit-rsvp";
import { isUuid } from "@/lib/ids/uuid";
import { chooseLocale } from "@/lib/i18n/locales";
import { localizeError } from "@/lib/i18n/localize-error";
import { translator } from "@/lib/i18n/translator";

const params = z.object({ eventId: z.string() });

/** A plain HTML form post for a real event id is answered with a redirect back to its page. */
const formPost = (request: Request, eventId: string | undefined): eventId is string =>
  isFormPost(request) && eventId !== undefined && isUuid(eventId);

/** `?lang=` and `Accept-Language` of the request (docs/decisions.md, "Recipient languages"). */
const languageOf = (request: Request) => ({
  lang: new URL(request.url).searchParams.get("lang"),
  acceptLanguage: request.headers.get("accept-language"),
});

/** Back to the RSVP page with the outcome, in the language the page was in (its `?lang=`). */
const back = (request: Request, eventId: string, outcome: string, headers: HeadersInit = {}) => {
  const { lang } = languageOf(request);
  const language = lang ? `&lang=${encodeURIComponent(lang)}` : "";
  return new Response(null, {
    status: 303,
    headers: { ...headers, Location: `${appUrl()}/rsvp/${eventId}?${outcome}${language}` },
  });
};

/**
 * POST /api/rsvp/{event_id} (spec 4.13). The answer never names the contact: its id is the unsubscribe
 * link's key (docs/decisions.md, "Security headers and smaller defences"). JSON callers get JSON (a refusal
 * as the error envelope, its status from its code); a form post is answered with a redirect back to the
 * RSVP page carrying the outcome (`?error=` the refused field, else the code), so the page works without
 * JavaScript. A malformed id is checked here (isUuid): its 404 follows the same two shapes.
 */
export const POST = publicRoute(
  {
    name: "rsvp",
    params,
    refusal: (error, request, found) => {
      if (!formPost(request, found?.eventId))
        return jsonError(localizeError(error, translator(chooseLocale(languageOf(request)))));
      const retry: HeadersInit = error.retryAfter ? { "Retry-After": String(error.retryAfter) } : {};
      return back(request, found.eventId, `error=${error.field ?? error.code}`, retry);
    },
  },
  async (request, { eventId }) => {
    const form = formPost(request, eventId);
    const result = await register(request, eventId);
    if (!result) return form ? back(request, eventId, "status=registered") : Response.json({ success: true });
    // a full event whose waitlist is on (DESIGN section 9, "Events"): 202 and the number in line
    if (result.status === "waitlisted")
      return form
        ? back(request, eventId, `status=waitlisted&position=${result.position ?? ""}`)
        : Response.json({ status: "waitlisted", position: result.position }, { status: 202 });
    if (form)
      return back(request, eventId, result.alreadyRegistered ? "status=already" : "status=registered");
    return Response.json({
      success: true,
      status: result.status,
      registration_id: result.registrationId,
      already_registered: result.alreadyRegistered,
    });
  },
);

/** The registration, null for a bot caught by the honeypot; a refusal is thrown as an AppError. */
async function register(request: Request, eventId: string) {
  if (!isUuid(eventId)) throw rsvpRefusal("not_found");
  const ip = clientIp(request.headers);
  const limit = await withService((db) => checkRateLimit(db, `rsvp:${eventId}:${ip ?? "unknown"}`));
  if (!limit.allowed)
    throw new AppError("rate_limited", "Too many attempts. Try again in a minute.", {
      retryAfter: limit.retryAfterSeconds,
    });

  const body = await readRequestBody(request);
  if ("error" in body) throw body.error;
  // honeypot: a bot filled the hidden field; it is told all went well and nothing is stored
  if (typeof body.data.website_url === "string" && body.data.website_url.trim() !== "") return null;
  const parsed = rsvpSchema.safeParse(body.data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue.path[0];
    throw new AppError("invalid", issue.message, { field: field === undefined ? undefined : String(field) });
  }

  const result = await withService((db) =>
    submitRsvp(db, { eventId, rsvp: parsed.data, ip, language: languageOf(request) }),
  );
  if ("error" in result) throw result.error;
  return result.data;
}
