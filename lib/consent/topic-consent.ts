import type { Db } from "@/lib/db/doors";
import { signLink, verifyLink } from "@/lib/crypto/signed-link";
import { isUuid } from "@/lib/ids/uuid";
import { refused, type Refused, type Result } from "@/lib/errors/app-error";
import { applyConsent } from "./apply-consent";
import { changeContactConsent } from "./change-contact-consent";
import { decideConsent, type ConsentFlow } from "./consent-rules";
import { maskEmail } from "./get-subscribe-target";
import { loadConsentState, type ConsentState } from "./load-consent-state";
import { contactTopicStates, resolveTopicIds, type TopicState } from "./topics";
import { unsubscribeContact } from "./unsubscribe-contact";

/**
 * Per-topic consent (docs/decisions.md, "Subscription topics"), on the consent engine: the
 * rules of spec 3.3 decide (decideConsent), applyConsent writes, with one ledger entry per topic
 * changed and the same proof. is_subscribed stays the overall flag: on while any topic is on.
 */

interface Actor {
  ip?: string | null;
  source?: string;
  actorUserId?: string | null;
  actorApiKeyId?: string | null;
}

async function topicsOn(db: Db, contactId: string): Promise<Set<string>> {
  const rows = await db<{ topic_id: string }[]>`
    select topic_id from public.contact_topics where contact_id = ${contactId} and subscribed`;
  return new Set(rows.map((r) => r.topic_id));
}

const cleanlySubscribed = (state: ConsentState) =>
  state.is_subscribed &&
  !state.unsubscribed_at &&
  !state.suppressions.some((r) => r === "unsubscribe" || r === "manual");

/**
 * Joins the topics (ids already resolved in the contact's workspace). The flow's rules decide
 * first, so a topic is never joined where the overall subscribe would be refused (a complaint
 * blocks every topic). A cleanly subscribed contact keeps its consent proof: only the new topics
 * and their ledger entries are written; otherwise the flow's subscribe is applied with them.
 */
export async function joinTopics(
  db: Db,
  state: ConsentState,
  input: Actor & { flow: ConsentFlow; topicIds: readonly string[] },
): Promise<{ skip: string } | { joined: string[] }> {
  const on = await topicsOn(db, state.id);
  const joining = input.topicIds.filter((id) => !on.has(id));
  if (!joining.length) return { joined: [] };
  const decision = decideConsent(input.flow, {
    contact: state,
    suppressions: state.suppressions,
    ip: input.ip,
    source: input.source,
  });
  if ("skip" in decision) return { skip: decision.skip };
  const clean = cleanlySubscribed(state);
  await applyConsent(db, {
    workspaceId: state.workspace_id,
    contactId: state.id,
    change: clean ? { ...decision, columns: {}, clear: [] } : decision,
    writeColumns: !clean,
    topicIds: joining,
    actorUserId: input.actorUserId,
    actorApiKeyId: input.actorApiKeyId,
  });
  return { joined: joining };
}

/**
 * Leaves one topic. Leaving the last topic on is the spec's unsubscribe (4.7: is_subscribed
 * false, unsubscribed_at now, an 'unsubscribe' suppression), recorded as one ledger entry for
 * that topic; leaving one of several changes that topic only.
 */
export async function leaveTopic(
  db: Db,
  state: ConsentState,
  input: Actor & {
    flow: "unsubscribe_link" | "manual_unsubscribe" | "api_unsubscribe" | "campaign_leave_topic";
    topicId: string;
  },
): Promise<{ changed: boolean; everything: boolean }> {
  const on = await topicsOn(db, state.id);
  if (!on.has(input.topicId)) return { changed: false, everything: false };
  if (on.size === 1) {
    const skipped = await changeContactConsent(db, input.flow, state, {
      ...input,
      topicIds: [input.topicId],
    });
    if (skipped) throw new Error(`unsubscribe cannot be skipped: ${skipped.skip}`);
    return { changed: true, everything: true };
  }
  await applyConsent(db, {
    workspaceId: state.workspace_id,
    contactId: state.id,
    change: { flow: input.flow, action: "unsubscribed", columns: {}, clear: [], ip: input.ip ?? null },
    topicIds: [input.topicId],
    actorUserId: input.actorUserId,
    actorApiKeyId: input.actorApiKeyId,
  });
  return { changed: true, everything: false };
}

export type LinkUnsubscribeResult =
  | {
      data: {
        contactId: string;
        workspaceName: string;
        changed: boolean;
        /** the topic left; null: every topic (the spec's unsubscribe) */
        topic: { id: string; name: string } | null;
        /**
         * The link's signature, when it is one we signed for this contact's preference centre
         * (docs/decisions.md, "Signed recipient links"), and then the signature of its subscribe
         * link; null both for a link with only the contact id.
         */
        signature: string | null;
        subscribeSignature: string | null;
      };
    }
  | Refused;

/**
 * Spec 4.7, the unsubscribe link and its RFC 8058 one-click POST. A link of a broadcast sent to
 * a topic names it (`?topic=`): that topic is left, the others stay. The topic is looked up in
 * the contact's own workspace, so a topic id from anywhere else is ignored and the link
 * unsubscribes from everything, as the spec's link does.
 */
export async function unsubscribeByLink(
  db: Db,
  input: { contactId: string; topicId?: unknown; ip?: string | null; signature?: unknown },
): Promise<LinkUnsubscribeResult> {
  const state = await loadConsentState(db, { contactId: input.contactId });
  if (!state) return refused("not_found", "Unknown contact.");
  const subject = { workspaceId: state.workspace_id, contactId: state.id };
  const signed = verifyLink("preferences", subject, input.signature);
  const signatures = {
    signature: signed ? (input.signature as string) : null,
    subscribeSignature: signed ? signLink("subscribe", subject) : null,
  };
  const [topic] = isUuid(input.topicId)
    ? await db<{ id: string; name: string }[]>`
        select id, name from public.email_topics where id = ${input.topicId} and workspace_id = ${state.workspace_id}`
    : [];
  if (!topic) {
    const result = await unsubscribeContact(db, {
      contactId: state.id,
      flow: "unsubscribe_link",
      ip: input.ip,
    });
    if ("error" in result) return result;
    return { data: { ...result.data, topic: null, ...signatures } };
  }
  const { changed } = await leaveTopic(db, state, {
    flow: "unsubscribe_link",
    topicId: topic.id,
    ip: input.ip,
  });
  return {
    data: { contactId: state.id, workspaceName: state.workspace_name, changed, topic, ...signatures },
  };
}

export interface PreferenceCentre {
  contactId: string;
  maskedEmail: string;
  workspaceName: string;
  topics: TopicState[];
  /** a complaint or bounce: no topic can be joined (spec 4.6) */
  blocked: "complaint" | "bounce" | null;
}

/** What the preference centre shows; null for an unknown contact. */
export async function getPreferenceCentre(db: Db, contactId: string): Promise<PreferenceCentre | null> {
  if (!isUuid(contactId)) return null;
  const [row] = await db<
    { email: string; workspace_id: string; workspace_name: string; blocked: string | null }[]
  >`
    select c.email, c.workspace_id, w.name as workspace_name,
           (select s.reason from public.contact_suppressions s
            where s.contact_id = c.id and s.reason in ('complaint', 'bounce') order by s.reason desc limit 1) as blocked
    from public.contacts c join public.workspaces w on w.id = c.workspace_id
    where c.id = ${contactId}`;
  if (!row) return null;
  return {
    contactId,
    maskedEmail: maskEmail(row.email),
    workspaceName: row.workspace_name,
    topics: await contactTopicStates(db, { workspaceId: row.workspace_id, contactId }),
    blocked: row.blocked as PreferenceCentre["blocked"],
  };
}

type LeaveFlow = "unsubscribe_link" | "manual_unsubscribe" | "api_unsubscribe";

/**
 * Makes the contact's topics exactly `chosen` (ids resolved in its workspace): the chosen are
 * joined by `join`'s rules (refused past a bounce or complaint, nothing changed then), the others
 * left. Nothing chosen leaves every topic on, one ledger entry each, the last being the spec's
 * unsubscribe (4.7); with no topic on, it is that unsubscribe, one overall entry.
 */
async function applyTopicChoice(
  db: Db,
  state: ConsentState,
  chosen: readonly string[],
  input: Actor & { join: "resubscribe_link" | "api_subscribe"; leave: LeaveFlow },
): Promise<Result<{ joined: number; left: number }>> {
  const on = await topicsOn(db, state.id);
  if (!chosen.length && on.size > 0) {
    // one ledger entry per topic left; leaving the last is the spec's unsubscribe (4.7)
    for (const topicId of on) await leaveTopic(db, state, { ...input, flow: input.leave, topicId });
    return { data: { joined: 0, left: on.size } };
  }
  if (!chosen.length) {
    const result = await unsubscribeContact(db, {
      contactId: state.id,
      workspaceId: state.workspace_id,
      flow: input.leave,
      ip: input.ip,
      actorApiKeyId: input.actorApiKeyId,
    });
    if ("error" in result) return result;
    return { data: { joined: 0, left: on.size } };
  }
  const joined = await joinTopics(db, state, { ...input, flow: input.join, topicIds: chosen });
  if ("skip" in joined) return refused("suppressed", joined.skip);
  const after = (await loadConsentState(db, { contactId: state.id }))!;
  let left = 0;
  for (const topicId of on) {
    if (chosen.includes(topicId)) continue;
    const { changed } = await leaveTopic(db, after, { ...input, flow: input.leave, topicId });
    if (changed) left += 1;
  }
  return { data: { joined: joined.joined.length, left } };
}

/**
 * The preference centre's save: the topics ticked are joined (the re-subscribe link's rules,
 * spec 4.6: refused past a bounce or complaint), the others left. Nothing ticked leaves every
 * topic (applyTopicChoice): the spec's unsubscribe from everything (4.7). Joining a topic needs
 * the signature of the email's link (docs/decisions.md, "Signed recipient links"): with the
 * contact id alone, a choice that joins one is refused as an unknown link and nothing changes;
 * leaving needs none (spec 4.7).
 */
export async function savePreferences(
  db: Db,
  input: { contactId: string; topicIds: readonly unknown[]; ip?: string | null; signature?: unknown },
): Promise<Result<{ joined: number; left: number }>> {
  const state = await loadConsentState(db, { contactId: input.contactId });
  if (!state) return refused("not_found", "Unknown contact.");
  const chosen = await resolveTopicIds(db, state.workspace_id, input.topicIds);
  const on = await topicsOn(db, state.id);
  const subject = { workspaceId: state.workspace_id, contactId: state.id };
  if (chosen.some((id) => !on.has(id)) && !verifyLink("preferences", subject, input.signature))
    return refused("not_found", "Unknown contact.");
  return applyTopicChoice(db, state, chosen, {
    ip: input.ip,
    join: "resubscribe_link",
    leave: "unsubscribe_link",
  });
}

/**
 * docs/api.md POST /api/v1/contacts/{id}/topics: the contact's topics become those named by key,
 * with the caller's proof (the subscribe operation's rules: refused past a bounce or complaint);
 * an unknown key refuses the whole request.
 */
export async function setTopicsByApi(
  db: Db,
  input: {
    workspaceId: string;
    contactId: string;
    keys: readonly string[];
    source: string;
    ip: string | null;
    actorApiKeyId: string;
  },
): Promise<Result<{ joined: number; left: number }>> {
  const state = await loadConsentState(db, { contactId: input.contactId, workspaceId: input.workspaceId });
  if (!state) return refused("not_found", "Contact not found.");
  const keys = [...new Set(input.keys)];
  const rows = keys.length
    ? await db<{ id: string; key: string }[]>`
        select id, key from public.email_topics where workspace_id = ${input.workspaceId} and key in ${db(keys)}`
    : [];
  const unknown = keys.filter((k) => !rows.some((r) => r.key === k));
  if (unknown.length)
    return refused("invalid", `No topic with the key ${unknown.join(", ")}.`, { field: "topics" });
  return applyTopicChoice(
    db,
    state,
    rows.map((r) => r.id),
    { ...input, join: "api_subscribe", leave: "api_unsubscribe" },
  );
}
