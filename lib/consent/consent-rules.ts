import type { ContactRow } from "@/lib/contacts/contact-row";
import type { SuppressionReason } from "./email-status";

/** The flows that change a contact's subscription (spec 3.3). */
export type ConsentFlow =
  | "form"
  | "rsvp"
  | "resubscribe_link"
  | "manual"
  | "ticketing_auto_subscribe"
  | "payproc_auto_subscribe"
  | "csv_import"
  | "unsubscribe_link"
  | "manual_unsubscribe"
  | "api_subscribe"
  | "api_unsubscribe"
  | "campaign_join_topic"
  | "campaign_leave_topic";

export const LEGAL_BASES = ["Verbal Consent", "Written Consent", "Existing Relationship"] as const;
export type LegalBasis = (typeof LEGAL_BASES)[number];

export interface ConsentContext {
  /** the contact as stored (null when it is being created) */
  contact: Pick<ContactRow, "is_subscribed" | "unsubscribed_at"> | null;
  /** reasons of the contact's current suppressions */
  suppressions: readonly SuppressionReason[];
  ip?: string | null;
  /** form id or custom value (form), event id (rsvp), the proof's source (api_subscribe) */
  source?: string;
  legalBasis?: LegalBasis;
  now?: Date;
}

export interface ConsentChange {
  flow: ConsentFlow;
  action: "subscribed" | "unsubscribed";
  /** contact columns to write */
  columns: Partial<
    Pick<ContactRow, "is_subscribed" | "opt_in_timestamp" | "opt_in_source" | "opt_in_ip" | "unsubscribed_at">
  >;
  /** suppressions to delete; never contains 'complaint' */
  clear: SuppressionReason[];
  /** suppression to create */
  add?: SuppressionReason;
  source?: string;
  legalBasis?: LegalBasis;
  ip?: string | null;
}

export type ConsentDecision = ConsentChange | { skip: string };

const NON_COMPLAINT: SuppressionReason[] = ["bounce", "unsubscribe", "manual"];

/** The api_subscribe refusal: an active bounce or complaint suppression (409 `suppressed`). */
export const API_SUPPRESSED =
  "This contact has a bounce or complaint suppression, so it cannot be subscribed.";

/**
 * Every subscription rule of the spec in one place, as data: given the flow and the contact's
 * state, which columns change and which suppressions go. A 'complaint' suppression is never
 * in `clear` (spec 3.3), whatever the flow.
 */
export function decideConsent(flow: ConsentFlow, ctx: ConsentContext): ConsentDecision {
  const now = ctx.now ?? new Date();
  const has = (reason: SuppressionReason) => ctx.suppressions.includes(reason);
  const cleanlySubscribed = Boolean(ctx.contact?.is_subscribed && !ctx.contact.unsubscribed_at);
  const subscribe = (
    columns: ConsentChange["columns"],
    clear: SuppressionReason[],
    extra: Partial<ConsentChange> = {},
  ): ConsentChange => ({
    flow,
    action: "subscribed",
    columns: { is_subscribed: true, unsubscribed_at: null, ...columns },
    clear,
    ip: columns.opt_in_ip,
    source: columns.opt_in_source ?? undefined,
    ...extra,
  });

  switch (flow) {
    // 4.2.3 (form) and 4.13 (RSVP): consent with the submitter's IP; every suppression but complaint goes.
    case "form":
    case "rsvp":
      return subscribe(
        { opt_in_timestamp: now, opt_in_ip: ctx.ip ?? null, opt_in_source: ctx.source ?? null },
        NON_COMPLAINT,
      );
    // 4.6: refused past a bounce or complaint; unsubscribe and manual go; opt-in IP and time recorded.
    case "resubscribe_link":
      if (has("complaint"))
        return { skip: "This address reported our email as spam, so it cannot be re-subscribed." };
      if (has("bounce")) return { skip: "Email to this address bounced, so it cannot be re-subscribed." };
      // 4.6 step 3: an already subscribed contact keeps its consent proof; only stale state is cleaned.
      if (ctx.contact?.is_subscribed) return subscribe({}, ["unsubscribe", "manual"], { ip: ctx.ip ?? null });
      return subscribe({ opt_in_timestamp: now, opt_in_ip: ctx.ip ?? null }, ["unsubscribe", "manual"]);
    // 4.9: a legal basis is required; every suppression but complaint goes.
    case "manual":
      if (!ctx.legalBasis) return { skip: "Choose the legal basis for this consent." };
      return subscribe(
        {
          opt_in_timestamp: now,
          opt_in_ip: ctx.ip ?? null,
          opt_in_source: `Admin Manual Entry: ${ctx.legalBasis}`,
        },
        NON_COMPLAINT,
        { legalBasis: ctx.legalBasis },
      );
    // 4.5 step 5: never past a complaint; no IP; every other suppression goes.
    case "ticketing_auto_subscribe":
      if (has("complaint")) return { skip: "complaint suppression" };
      return subscribe(
        { opt_in_timestamp: now, opt_in_ip: null, opt_in_source: "ticketing_auto_subscribe" },
        NON_COMPLAINT,
      );
    // 4.4 step 6: never past a complaint or manual block; clean consent kept; bounce and unsubscribe go.
    case "payproc_auto_subscribe":
      if (has("complaint")) return { skip: "complaint suppression" };
      if (has("manual")) return { skip: "manual suppression" };
      if (cleanlySubscribed) return { skip: "already subscribed" };
      return subscribe({ opt_in_timestamp: now, opt_in_ip: null, opt_in_source: "payproc_auto_subscribe" }, [
        "bounce",
        "unsubscribe",
      ]);
    // 4.15 CSV import 'Mark as Subscribed': consent proof; existing consent of subscribed contacts kept.
    case "csv_import":
      if (cleanlySubscribed) return { skip: "already subscribed" };
      return subscribe({ opt_in_timestamp: now, opt_in_ip: ctx.ip ?? null, opt_in_source: "CSV Import" }, []);
    // docs/api.md: as the manual subscribe (4.9) with the caller's proof, opt_in_source
    // 'API: <source>' and its IP; refused past a bounce or complaint (4.6), nothing changes then.
    case "api_subscribe":
      if (has("complaint") || has("bounce")) return { skip: API_SUPPRESSED };
      return subscribe(
        { opt_in_timestamp: now, opt_in_ip: ctx.ip ?? null, opt_in_source: `API: ${ctx.source ?? ""}` },
        ["unsubscribe", "manual"],
      );
    // a campaign's join_topic step (docs/decisions.md, "Campaign steps that change a contact"): a
    // campaign gives no consent of its own, so only a contact subscribed with no suppression of any
    // reason (spec 8.3, marketing eligible) joins, keeping its consent proof
    case "campaign_join_topic":
      if (!cleanlySubscribed || ctx.suppressions.length > 0)
        return { skip: "not subscribed: a campaign joins topics only for subscribed contacts" };
      return subscribe({}, []);
    // 4.7 and 4.9 (plain unsubscribe), and the API's: is_subscribed false, unsubscribed_at now, an 'unsubscribe' suppression.
    case "unsubscribe_link":
    case "manual_unsubscribe":
    case "api_unsubscribe":
    case "campaign_leave_topic":
      return {
        flow,
        action: "unsubscribed",
        columns: { is_subscribed: false, unsubscribed_at: now },
        clear: [],
        add: "unsubscribe",
        ip: ctx.ip ?? null,
      };
  }
}
