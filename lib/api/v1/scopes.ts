import type { TimelineKind } from "@/lib/contacts/timeline/types";
import { AppError } from "@/lib/errors/app-error";
import { leaves, type Condition, type SegmentFilter } from "@/lib/segments/filter";
import type { WebhookEventType } from "@/lib/webhooks/outbound/event-types";

/** The key scopes of docs/api.md, the same list as the api_keys_scopes_check constraint. */
export const API_SCOPES = [
  "contacts:read",
  "contacts:write",
  "consent:write",
  "events:read",
  "events:write",
  "transactions:read",
  "transactions:write",
  "forms:read",
  "webhooks:write",
  "email:read",
  "email:write",
  "campaigns:read",
  "campaigns:write",
] as const;

export type ApiScope = (typeof API_SCOPES)[number];

/**
 * The scope whose data each part of a wider answer reads (docs/api.md, "Scopes and the data they
 * reach"; docs/decisions.md, "Scopes cover what they label"): an endpoint's own scope admits the
 * request, and each of these is checked again for the data it would show.
 */
export const TIMELINE_KIND_SCOPES = {
  note: "contacts:read",
  consent: "contacts:read",
  change: "contacts:read",
  form: "forms:read",
  event: "events:read",
  payment: "transactions:read",
  email: "email:read",
  campaign: "campaigns:read",
} as const satisfies Record<TimelineKind, ApiScope>;

/** Segment conditions that read another area's data; every other condition reads the contact. */
export const CONDITION_SCOPES = {
  form_submitted: "forms:read",
  event_registered: "events:read",
  event_attended: "events:read",
  event_no_show: "events:read",
  purchased: "transactions:read",
  email_engagement: "email:read",
} as const satisfies Partial<Record<Condition["kind"], ApiScope>>;

/** Outbound webhook events by the scope that reads the same data (a key subscribes only to those it holds). */
export function eventTypeScope(type: WebhookEventType): ApiScope {
  const area = type.slice(0, type.indexOf("."));
  if (area === "form") return "forms:read";
  if (area === "transaction" || area === "membership" || area === "payment") return "transactions:read";
  if (area === "email") return "email:read";
  if (area === "event_registration" || area === "rsvp") return "events:read";
  return "contacts:read";
}

/** The scopes a segment filter's conditions need beyond `contacts:read`. */
export function filterScopes(filter: SegmentFilter): ApiScope[] {
  const kinds = leaves(filter.root).map((c) => c.kind);
  return [
    ...new Set(
      kinds.flatMap((k) =>
        k in CONDITION_SCOPES ? [CONDITION_SCOPES[k as keyof typeof CONDITION_SCOPES]] : [],
      ),
    ),
  ];
}

/** 403 `forbidden` unless the key holds every scope in `needed`, naming the first missing one. */
export function requireScopes(key: { scopes: readonly ApiScope[] }, needed: readonly ApiScope[]): void {
  const missing = needed.find((scope) => !key.scopes.includes(scope));
  if (missing) throw new AppError("forbidden", `This API key lacks the scope ${missing}.`);
}
