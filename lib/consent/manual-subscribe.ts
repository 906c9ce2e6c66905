import { z } from "zod";
import type { Db } from "@/lib/db/doors";
import { changeContactConsent } from "./change-contact-consent";
import { LEGAL_BASES } from "./consent-rules";
import { loadConsentState } from "./load-consent-state";
import { refused, type Result } from "@/lib/errors/app-error";

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

export type ManualSubscribeResult = Result<{ contactId: string }>;

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
    return refused("invalid", issue.message, { field: issue.path[0] as "legalBasis" | "attested" });
  }
  const state = await loadConsentState(db, input);
  if (!state) return refused("not_found", "Contact not found.");
  if (state.is_subscribed && !state.unsubscribed_at)
    return refused("conflict", "This contact is already subscribed.");

  const skipped = await changeContactConsent(db, "manual", state, {
    ip: input.ip,
    legalBasis: parsed.data.legalBasis,
    actorUserId: input.actorUserId,
  });
  if (skipped) return refused("invalid", skipped.skip);
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
 * docs/api.md subscribe: the manual subscribe of spec 4.9 (3.3) with the API caller's proof
 * in place of the legal basis: opt_in_source 'API: <source>', opt_in_ip the proof's address, the
 * key as the ledger's actor. An active bounce or complaint suppression refuses it ('suppressed')
 * and nothing changes (spec 4.6).
 */
export async function apiSubscribe(db: Db, input: ApiSubscribeInput): Promise<Result<{ contactId: string }>> {
  const state = await loadConsentState(db, input);
  if (!state) return refused("not_found", "Contact not found.");
  const blocked = await changeContactConsent(db, "api_subscribe", state, {
    ip: input.ip,
    source: input.source,
    actorApiKeyId: input.actorApiKeyId,
  });
  if (blocked) return refused("suppressed");
  return { data: { contactId: state.id } };
}
