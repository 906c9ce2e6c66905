import type { EbAttendee, EbEvent, EbOrder, EbOrganization, EbPagination, EbWebhook } from "./types";
import { TICKETING_ACTIONS } from "./types";

/** EVENTBRITE_API_BASE includes the version (docs/decisions.md, "What the spec leaves open"). */
export function eventbriteApiBase(): string {
  return (process.env.EVENTBRITE_API_BASE ?? "https://www.eventbriteapi.com/v3").replace(/\/+$/, "");
}

export function eventbriteOauthBase(): string {
  return (process.env.EVENTBRITE_OAUTH_BASE ?? "https://www.eventbrite.com/oauth").replace(/\/+$/, "");
}

export function eventbriteConfigured(): boolean {
  return Boolean(process.env.EVENTBRITE_CLIENT_ID && process.env.EVENTBRITE_CLIENT_SECRET);
}

export class EventbriteError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/**
 * docs/decisions.md, "The ticketing webhook": an address is an Eventbrite API address only when it is on the
 * configured API host, under the configured base path. The token is never sent anywhere else.
 */
export function isEventbriteApiUrl(raw: string): boolean {
  let url: URL;
  let base: URL;
  try {
    url = new URL(raw);
    base = new URL(eventbriteApiBase());
  } catch {
    return false;
  }
  const basePath = base.pathname.replace(/\/+$/, "");
  return (
    url.protocol === base.protocol &&
    url.host === base.host &&
    !url.username &&
    !url.password &&
    url.pathname.startsWith(`${basePath}/`) &&
    !url.pathname.includes("..")
  );
}

async function call<T>(token: string, pathOrUrl: string, init: RequestInit = {}): Promise<T> {
  const url = pathOrUrl.startsWith("http") ? pathOrUrl : `${eventbriteApiBase()}${pathOrUrl}`;
  if (!isEventbriteApiUrl(url)) throw new EventbriteError(`Refused a non-Eventbrite address: ${url}`, 0);
  const res = await fetch(url, {
    ...init,
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", ...init.headers },
    signal: AbortSignal.timeout(15_000),
  });
  if (!res.ok) {
    const body = await res.text().catch(() => "");
    throw new EventbriteError(
      `Eventbrite ${init.method ?? "GET"} ${url}: ${res.status} ${body.slice(0, 200)}`,
      res.status,
    );
  }
  return (res.status === 204 ? {} : await res.json()) as T;
}

function withQuery(pathOrUrl: string, query: Record<string, string>): string {
  const url = new URL(pathOrUrl.startsWith("http") ? pathOrUrl : `${eventbriteApiBase()}${pathOrUrl}`);
  for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
  return url.toString();
}

/** Follows Eventbrite's continuation tokens to the end of a list. */
async function all<T>(token: string, path: string, key: string, query: Record<string, string> = {}) {
  const items: T[] = [];
  let continuation: string | undefined;
  for (let page = 0; page < 1000; page++) {
    const body = await call<Record<string, unknown> & { pagination?: EbPagination }>(
      token,
      withQuery(path, continuation ? { ...query, continuation } : query),
    );
    items.push(...((body[key] as T[] | undefined) ?? []));
    if (!body.pagination?.has_more_items || !body.pagination.continuation) break;
    continuation = body.pagination.continuation;
  }
  return items;
}

/** OAuth 2.0: the authorisation code for an access token (Eventbrite's tokens do not expire). */
export async function exchangeCode(code: string, redirectUri: string): Promise<string> {
  const res = await fetch(`${eventbriteOauthBase()}/token`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "authorization_code",
      client_id: process.env.EVENTBRITE_CLIENT_ID ?? "",
      client_secret: process.env.EVENTBRITE_CLIENT_SECRET ?? "",
      code,
      redirect_uri: redirectUri,
    }),
    signal: AbortSignal.timeout(15_000),
  });
  const body = (await res.json().catch(() => ({}))) as { access_token?: string; error?: string };
  if (!res.ok || !body.access_token)
    throw new EventbriteError(`token exchange failed: ${res.status} ${body.error ?? ""}`, res.status);
  return body.access_token;
}

export function authorizeUrl(state: string, redirectUri: string): string {
  const url = new URL(`${eventbriteOauthBase()}/authorize`);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("client_id", process.env.EVENTBRITE_CLIENT_ID ?? "");
  url.searchParams.set("redirect_uri", redirectUri);
  url.searchParams.set("state", state);
  return url.toString();
}

export const getOrganizations = (token: string) =>
  all<EbOrganization>(token, "/users/me/organizations/", "organizations");

export const createOrganizationWebhook = (token: string, organizationId: string, endpointUrl: string) =>
  call<EbWebhook>(token, `/organizations/${encodeURIComponent(organizationId)}/webhooks/`, {
    method: "POST",
    body: JSON.stringify({ endpoint_url: endpointUrl, actions: TICKETING_ACTIONS.join(",") }),
  });

export async function deleteWebhook(token: string, webhookId: string): Promise<void> {
  try {
    await call(token, `/webhooks/${encodeURIComponent(webhookId)}/`, { method: "DELETE" });
  } catch (error) {
    // already gone at Eventbrite: nothing left to remove
    if (!(error instanceof EventbriteError && error.status === 404)) throw error;
  }
}

export const listOrganizationEvents = (token: string, organizationId: string) =>
  all<EbEvent>(token, `/organizations/${encodeURIComponent(organizationId)}/events/`, "events", {
    expand: "ticket_classes,venue",
    // every status: a re-sync must see events that were cancelled or ended since
    status: "all",
  });

export const getEvent = (token: string, eventId: string) =>
  call<EbEvent>(
    token,
    withQuery(`/events/${encodeURIComponent(eventId)}/`, { expand: "ticket_classes,venue" }),
  );

/** Every attendee of an event, with the order (the buyer) for blank attendee emails. */
export const listEventAttendees = (token: string, eventId: string) =>
  all<EbAttendee>(token, `/events/${encodeURIComponent(eventId)}/attendees/`, "attendees", {
    expand: "order",
  });

/** The order a webhook points at, with its attendees (spec 4.5 order.placed step 1). */
export const getOrderAt = (token: string, apiUrl: string) =>
  call<EbOrder>(token, withQuery(apiUrl, { expand: "attendees" }));

/** The attendee a webhook points at, with its order (the buyer). */
export const getAttendeeAt = (token: string, apiUrl: string) =>
  call<EbAttendee>(token, withQuery(apiUrl, { expand: "order" }));
