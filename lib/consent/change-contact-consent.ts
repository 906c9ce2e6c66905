import type { Db } from "@/lib/db/doors";
import { applyConsent } from "./apply-consent";
import { decideConsent, type ConsentFlow, type LegalBasis } from "./consent-rules";
import type { ConsentState } from "./load-consent-state";

/**
 * A consent flow on a contact whose state was loaded (and locked) with loadConsentState: the
 * rules decide the change (spec 3.3), which is applied to the contact's columns, suppressions
 * and ledger. Answers the rules' reason when they refuse it, else null.
 */
export async function changeContactConsent(
  db: Db,
  flow: ConsentFlow,
  state: ConsentState,
  input: {
    ip?: string | null;
    legalBasis?: LegalBasis;
    /** form id or custom value (form), event id (rsvp), the proof's source (api_subscribe) */
    source?: string;
    actorUserId?: string | null;
    actorApiKeyId?: string | null;
    /** the topics the change concerns (applyConsent); none: the overall consent */
    topicIds?: readonly string[];
  },
): Promise<{ skip: string } | null> {
  const change = decideConsent(flow, {
    contact: state,
    suppressions: state.suppressions,
    ip: input.ip,
    source: input.source,
    legalBasis: input.legalBasis,
  });
  if ("skip" in change) return { skip: change.skip };
  await applyConsent(db, {
    workspaceId: state.workspace_id,
    contactId: state.id,
    change,
    actorUserId: input.actorUserId,
    actorApiKeyId: input.actorApiKeyId,
    writeColumns: true,
    topicIds: input.topicIds,
  });
  return null;
}
