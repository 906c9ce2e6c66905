import { z } from "zod";
import type { Db } from "@/lib/db/doors";
import { changeContactConsent } from "./change-contact-consent";
import { LEGAL_BASES } from "./consent-rules";
import { loadConsentState } from "./load-consent-state";

export const manualSubscribeSchema = z.object({
  legalBasis: z.enum(LEGAL_BASES, { error: "Choose the legal basis for this consent." }),
  attested: z.literal(true, { error: "Confirm that the contact gave this consent." }),
});

export interface ManualSubscribeInput {
  workspaceId: string;
  contactId: string;
  legalBasis: unknown;
  attested: unknown;
  /** the admin's IP (spec 4.9) */
  ip: string | null;
  actorUserId: string;
}

export type ManualSubscribeResult =
  { data: { contactId: string } } | { error: string; field?: "legalBasis" | "attested" };

/**
 * Spec 4.9: allowed for any non-subscribed contact; requires a legal basis of the three and a
 * checked attestation. Sets is_subscribed, opt_in_timestamp, opt_in_source 'Admin Manual Entry:
 * <legal_basis>' and opt_in_ip (the admin's), clears unsubscribed_at and every suppression but a
 * complaint, which stays (spec 3.3) and keeps blocking all email.
 */
export async function manualSubscribe(db: Db, input: ManualSubscribeInput): Promise<ManualSubscribeResult> {
  const parsed = manualSubscribeSchema.safeParse({ legalBasis: input.legalBasis, attested: input.attested });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { error: issue.message, field: issue.path[0] as "legalBasis" | "attested" };
  }
  const state = await loadConsentState(db, input);
  if (!state) return { error: "Contact not found." };
  if (state.is_subscribed && !state.unsubscribed_at) return { error: "This contact is already subscribed." };

  const refused = await changeContactConsent(db, "manual", state, {
    ip: input.ip,
    legalBasis: parsed.data.legalBasis,
    actorUserId: input.actorUserId,
  });
  if (refused) return { error: refused.skip };
  return { data: { contactId: state.id } };
}

export interface ApiSubscribeInput {
  workspaceId: string;
  contactId: string;
  /** the caller's proof: where the consent was given, and from which address */
  source: string;
  ip: string | null;
  actorApiKeyId: string;
}

/**
 * DESIGN section 8 subscribe: the manual subscribe of spec 4.9 (3.3) with the API caller's proof
 * in place of the legal basis: opt_in_source 'API: <source>', opt_in_ip the proof's address, the
 * key as the ledger's actor. An active bounce or complaint suppression refuses it ('suppressed')
 * and nothing changes (spec 4.6).
 */
export async function apiSubscribe(
  db: Db,
  input: ApiSubscribeInput,
): Promise<{ data: { contactId: string } } | { error: "not_found" | "suppressed" }> {
  const state = await loadConsentState(db, input);
  if (!state) return { error: "not_found" };
  const refused = await changeContactConsent(db, "api_subscribe", state, {
    ip: input.ip,
    source: input.source,
    actorApiKeyId: input.actorApiKeyId,
  });
  if (refused) return { error: "suppressed" };
  return { data: { contactId: state.id } };
}
