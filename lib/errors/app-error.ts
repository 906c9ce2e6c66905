/**
 * The one list of expected errors. Every adapter (server action, route handler) maps an
 * AppError to its HTTP status and user message here and nowhere else; anything that is not an
 * AppError is unexpected and is logged once, with a request id, by the adapter.
 *
 * | code             | status | meaning                                                        |
 * |------------------|--------|----------------------------------------------------------------|
 * | invalid          | 400    | the input breaks a rule; the message says which (and `field`)  |
 * | unauthenticated  | 401    | no session, or a machine caller without a valid key            |
 * | forbidden        | 403    | signed in, but the role or origin does not allow it            |
 * | step_up_required | 403    | a dangerous action needs a fresh password or code first        |
 * | captcha_required | 400    | a public form needs its captcha token (spec 4.2)               |
 * | unknown_merge_tag | 400   | an email names a merge tag that does not exist, or misspells one |
 * | captcha_failed   | 403    | the captcha provider did not verify the token (spec 4.2)       |
 * | not_found        | 404    | no such thing in the caller's workspace (also: malformed ids)  |
 * | event_unpublished | 403   | an RSVP for an event that is not published (spec 4.13)         |
 * | conflict         | 409    | the state changed underneath, or the thing already exists      |
 * | contact_exists   | 409    | a contact with this email is already in the workspace (4.10)   |
 * | suppressed       | 409    | a bounce or complaint suppression forbids it (spec 4.6)        |
 * | domain_taken     | 409    | a sending domain another workspace verified (docs/decisions.md) |
 * | already_enrolled | 409    | the contact has an active enrollment in the campaign (DESIGN.md section 9) |
 * | idempotency_conflict | 409 | an Idempotency-Key reused with a different request            |
 * | already_checked_in | 409  | a ticket scanned after its first check-in (DESIGN.md section 9) |
 * | ticket_cancelled | 409    | a ticket whose registration is no longer confirmed             |
 * | event_ticketing  | 409    | an RSVP for a ticketing-linked event: register there (4.13)    |
 * | event_full       | 409    | an RSVP for an event with no seat left                         |
 * | event_past       | 410    | an RSVP for an event that has started or ended (spec 4.13)     |
 * | ticket_unavailable | 409  | a ticket type not on sale now, paid, or its access code used up |
 * | offer_used       | 409    | a waitlist offer's claim link used again (DESIGN.md section 9) |
 * | offer_expired    | 410    | a waitlist offer claimed after its time ran out                |
 * | too_large        | 413    | a body or upload over its limit                                |
 * | unsupported      | 415    | a content type the endpoint does not take                      |
 * | rate_limited     | 429    | too many attempts; `retryAfter` seconds                        |
 * | retry_later      | 500    | a webhook delivery failed and was kept: the provider retries   |
 * | provider_failed  | 502    | Stripe, Eventbrite or Resend could not be reached or refused   |
 * | unavailable      | 503    | a dependency of ours is down; try again                        |
 * | internal         | 500    | only ever built by the adapters from an unexpected error       |
 *
 * Route handlers answer an AppError as the envelope `{ success: false, error, code }` with the
 * status above (lib/adapters/route-errors.ts); `details` adds fields to that envelope (an RSVP's
 * `eventbrite_url`). No other file in lib/ names an HTTP status (an ESLint rule,
 * eslint-rules/no-http-status.mjs): a refusal is a code, and its status is looked up here.
 */
export const APP_ERROR_CODES = {
  invalid: { status: 400, message: "The request is not valid." },
  unauthenticated: { status: 401, message: "Sign in first." },
  forbidden: { status: 403, message: "You do not have permission to do that." },
  step_up_required: {
    status: 403,
    message:
      "Confirm it is you first: enter your password, or a code from your authenticator app, then try again.",
  },
  captcha_required: { status: 400, message: "Complete the captcha." },
  unknown_merge_tag: {
    status: 400,
    message: "The message uses a merge tag that does not exist; use {{first_name}} or another known tag.",
  },
  captcha_failed: { status: 403, message: "The captcha could not be verified. Try again." },
  not_found: { status: 404, message: "Not found." },
  event_unpublished: { status: 403, message: "This event is not open for registration." },
  conflict: { status: 409, message: "This changed in the meantime; reload and try again." },
  contact_exists: { status: 409, message: "A contact with this email already exists." },
  suppressed: { status: 409, message: "This contact is suppressed after a bounce or complaint." },
  domain_taken: {
    status: 409,
    message: "This domain is already verified for sending by another account on this service.",
  },
  already_enrolled: { status: 409, message: "The contact is already enrolled in this campaign." },
  idempotency_conflict: {
    status: 409,
    message: "This Idempotency-Key was used with a different request.",
  },
  already_checked_in: { status: 409, message: "This ticket was already checked in." },
  ticket_cancelled: { status: 409, message: "This ticket's registration was cancelled." },
  event_ticketing: { status: 409, message: "Registration for this event happens on Eventbrite." },
  event_full: { status: 409, message: "This event is full: no seats are left." },
  event_past: { status: 410, message: "This event has already started, so registration is closed." },
  ticket_unavailable: { status: 409, message: "This ticket type is not available." },
  offer_used: { status: 409, message: "This offer was already claimed: the seat is yours." },
  offer_expired: {
    status: 410,
    message: "This offer has expired: the seat went to the next person on the waitlist.",
  },
  too_large: { status: 413, message: "The request is too large." },
  unsupported: { status: 415, message: "This content type is not accepted." },
  rate_limited: { status: 429, message: "Too many attempts; try again later." },
  retry_later: { status: 500, message: "The event could not be processed; it will be retried." },
  provider_failed: { status: 502, message: "The provider could not be reached; nothing was changed." },
  unavailable: { status: 503, message: "The service is briefly unavailable; try again." },
  internal: { status: 500, message: "Something went wrong." },
} as const satisfies Record<string, { status: number; message: string }>;

export type AppErrorCode = keyof typeof APP_ERROR_CODES;

export interface AppErrorOptions {
  /** the form field the message belongs beside */
  field?: string;
  /** for rate_limited: seconds until a retry can succeed (the Retry-After header) */
  retryAfter?: number;
  /** fields the JSON envelope carries besides `success`, `error` and `code` */
  details?: Record<string, unknown>;
  cause?: unknown;
}

export class AppError extends Error {
  readonly code: AppErrorCode;
  readonly field?: string;
  readonly retryAfter?: number;
  readonly details?: Record<string, unknown>;

  /** `message` is shown to the caller as it is: it must name nothing the caller did not send. */
  constructor(code: AppErrorCode, message?: string, options: AppErrorOptions = {}) {
    super(message ?? APP_ERROR_CODES[code].message, { cause: options.cause });
    this.name = "AppError";
    this.code = code;
    this.field = options.field;
    this.retryAfter = options.retryAfter;
    this.details = options.details;
  }

  get status(): number {
    return APP_ERROR_CODES[this.code].status;
  }
}

/**
 * A domain function's refusal, returned where its caller decides what happens next (a route that
 * answers with the form's CORS headers, a job that records it, a test that looks at it); thrown,
 * an AppError rolls the transaction back.
 */
export interface Refused {
  error: AppError;
}

/** What a domain function answers: its data, or a refusal with a code of the one list. */
export type Result<T> = { data: T } | Refused;

/** A refusal as a domain function returns it. */
export function refused(code: AppErrorCode, message?: string, options?: AppErrorOptions): Refused {
  return { error: new AppError(code, message, options) };
}

/** A refusal's error, beside `field` when it names none; a message alone is `invalid`. */
function asAppError(error: string | AppError, field: string | undefined, resultField?: string): AppError {
  if (typeof error === "string") return new AppError("invalid", error, { field: resultField ?? field });
  if (error.field || !field) return error;
  return new AppError(error.code, error.message, {
    field,
    retryAfter: error.retryAfter,
    details: error.details,
  });
}

/**
 * A domain function's `{ data } | { error }` result as its data, or its refusal thrown (inside a
 * transaction, it rolls the transaction back), shown beside the refusal's field, else beside
 * `field`, else as the form's message. A refusal given as a bare message is `invalid`.
 */
export function unwrap<T>(
  result: { data: T } | { error: string | AppError; field?: string },
  field?: string,
): T {
  if ("error" in result) throw asAppError(result.error, field, result.field);
  return result.data;
}

/**
 * Throws (as `unwrap`) a domain result that carries an `error`, and narrows it to the other
 * shapes, for results without `data` (`{ success: true }`, counts).
 */
export function refuseIf<T extends object>(
  result: T,
  field?: string,
): asserts result is Exclude<T, { error: string | AppError }> {
  if (!("error" in result)) return;
  const error = result.error;
  const resultField = "field" in result && typeof result.field === "string" ? result.field : undefined;
  if (typeof error === "string" || error instanceof AppError) throw asAppError(error, field, resultField);
}
