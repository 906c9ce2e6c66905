import { z } from "zod";
import { publicRoute } from "@/lib/adapters/public-route";
import { withService } from "@/lib/db/doors";
import { appUrl } from "@/lib/config";
import { clientIp } from "@/lib/http/client-ip";
import { checkRateLimit } from "@/lib/rate-limit/check-rate-limit";
import { isFormPost, readRequestBody } from "@/lib/events/rsvp/read-request-body";
import { REFUSAL_MESSAGES, type RsvpRefusal } from "@/lib/events/rsvp/rsvp-availability";
import { rsvpSchema } from "@/lib/events/rsvp/rsvp-schema";
import { submitRsvp } from "@/lib/events/rsvp/submit-rsvp";
import { isUuid } from "@/lib/ids/uuid";

const params = z.object({ eventId: z.string() });

const REFUSAL_STATUS: Record<RsvpRefusal, number> = {
  not_found: 404,
  unpublished: 403,
  past: 410,
  ticketing: 409,
  full: 409,
};

/**
 * POST /api/rsvp/{event_id} (spec 4.13). The answer never names the contact: its id is the unsubscribe
 * link's key (docs/decisions.md, "Security headers and smaller defences"). JSON callers get JSON; a form post is
 * answered with a redirect back to the RSVP page carrying the outcome, so the page works
 * without JavaScript. A malformed id is checked here (isUuid): its 404 follows the same two shapes.
 */
export const POST = publicRoute({ name: "rsvp", params }, async (request, { eventId }) => {
  const form = isFormPost(request);
  const answer = (
    status: number,
    body: Record<string, unknown>,
    outcome: string,
    headers: HeadersInit = {},
  ) =>
    form && isUuid(eventId)
      ? new Response(null, {
          status: 303,
          headers: { ...headers, Location: `${appUrl()}/rsvp/${eventId}?${outcome}` },
        })
      : Response.json(body, { status, headers });
  const fail = (
    status: number,
    code: string,
    error: string,
    extra: Record<string, unknown> = {},
    headers = {},
  ) => answer(status, { success: false, error, ...extra }, `error=${code}`, headers);

  if (!isUuid(eventId)) return fail(404, "not_found", REFUSAL_MESSAGES.not_found);
  const ip = clientIp(request.headers);
  const limit = await withService((db) => checkRateLimit(db, `rsvp:${eventId}:${ip ?? "unknown"}`));
  if (!limit.allowed)
    return fail(
      429,
      "rate_limited",
      "Too many attempts. Try again in a minute.",
      {},
      {
        "Retry-After": String(limit.retryAfterSeconds),
      },
    );

  const body = await readRequestBody(request);
  if ("error" in body) return fail(body.status, "invalid", body.error);
  // honeypot: a bot filled the hidden field; it is told all went well and nothing is stored
  if (typeof body.data.website_url === "string" && body.data.website_url.trim() !== "")
    return answer(200, { success: true }, "status=registered");
  const parsed = rsvpSchema.safeParse(body.data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return fail(400, String(issue.path[0] ?? "invalid"), issue.message);
  }

  const result = await withService((db) => submitRsvp(db, { eventId, rsvp: parsed.data, ip }));
  if ("error" in result)
    return fail(REFUSAL_STATUS[result.error], result.error, REFUSAL_MESSAGES[result.error], {
      ...(result.error === "ticketing" ? { eventbrite_url: result.eventbriteUrl ?? null } : {}),
    });
  const { data } = result;
  return answer(
    200,
    {
      success: true,
      registration_id: data.registrationId,
      already_registered: data.alreadyRegistered,
    },
    data.alreadyRegistered ? "status=already" : "status=registered",
  );
});
