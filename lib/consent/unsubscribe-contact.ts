import type { Db } from "@/lib/db/doors";
import { changeContactConsent } from "./change-contact-consent";
import { loadConsentState } from "./load-consent-state";
import { refused, type Refused } from "@/lib/errors/app-error";

export interface UnsubscribeInput {
  contactId: string;
  /** set by the dashboard (the member's workspace); the public link knows only the contact */
  workspaceId?: string;
  flow: "unsubscribe_link" | "manual_unsubscribe" | "api_unsubscribe";
  ip?: string | null;
  actorUserId?: string | null;
  /** the API key that asked (docs/api.md): the ledger's actor */
  actorApiKeyId?: string | null;
}

export type UnsubscribeResult =
  { data: { contactId: string; workspaceId: string; workspaceName: string; changed: boolean } } | Refused;

/**
 * Spec 3.3 / 4.7: the unsubscribe link, and plain unsubscribe in the dashboard (4.9): is_subscribed
 * false, unsubscribed_at now, an 'unsubscribe' suppression. Opening the link again (or the mail
 * client's one-click POST after the person clicked) changes nothing: the first time is kept.
 */
export async function unsubscribeContact(db: Db, input: UnsubscribeInput): Promise<UnsubscribeResult> {
  const state = await loadConsentState(db, input);
  if (!state) return refused("not_found", "Unknown contact.");
  const result = {
    contactId: state.id,
    workspaceId: state.workspace_id,
    workspaceName: state.workspace_name,
  };
  const already = !state.is_subscribed && state.unsubscribed_at && state.suppressions.includes("unsubscribe");
  if (already) return { data: { ...result, changed: false } };

  const skipped = await changeContactConsent(db, input.flow, state, {
    ip: input.ip,
    actorUserId: input.actorUserId,
    actorApiKeyId: input.actorApiKeyId,
  });
  if (skipped) throw new Error(`unsubscribe cannot be skipped: ${skipped.skip}`);
  return { data: { ...result, changed: true } };
}
