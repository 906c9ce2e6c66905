import { createHash } from "node:crypto";
import { asService, type Db } from "@/lib/db/doors";
import { refused, type Refused } from "@/lib/errors/app-error";
import { audienceCondition, marketingSkipReasonSql } from "./broadcast-audience";
import { getBroadcast } from "./broadcasts";
import { writeBroadcast } from "./broadcast-door";
import { languageCase, renderedMarketingSql } from "./render-email";
import { emailFrom, resendClient, sendThroughResend } from "./resend-client";
import { isPermanentRefusal } from "./flows/pace-provider";
import type { Sender } from "./sender";
import { metrics } from "@/lib/observability/metrics";
import { abBucketSql } from "./ab-split";
import { abSplit, awaitAbDecision, redecideIfDue } from "./ab-claim";
import { preheaderHtml, type AbVariant } from "./ab-test";

/** Resend's batch endpoint takes at most 100 emails. */
export const BROADCAST_BATCH_SIZE = 100;

export interface QueuedEmail {
  id: string;
  /** an A/B broadcast's variant position (its sender name is applied when delivered) */
  variant?: number | null;
  to_email: string;
  subject: string;
  html: string;
  text_body: string | null;
  headers: Record<string, string>;
}

/**
 * `stopped`: nothing more to claim now (the audience is done, or the broadcast is paused, cancelled
 * or sent). `othersSending`: the audience is done but rows another run leased are still on their
 * way; the broadcast is 'sent' when the last of them is recorded, by whichever run finds none left.
 */
type Claim = Refused | { queued: QueuedEmail[]; stopped?: boolean; othersSending?: boolean };

/**
 * How long a claimed row is its runner's own to deliver before another runner may take it again
 * (the runner's own next attempt takes it at once): past the pacer's longest ordinary wait, short
 * enough that a dead run's rows are resumed soon (docs/decisions.md, "One pacer per Resend key").
 */
export const BROADCAST_LEASE_SECONDS = 120;

/** A broadcast is worked on only in these states ('draft': the page's own batch loop, before jobs). */
const RUNNABLE = ["draft", "sending"];

/**
 * Phase 1, in its own transaction under the broadcast's row lock: the rows still 'queued' by an
 * interrupted run come back first (their delivery is retried with the same idempotency key);
 * otherwise the next contacts of the audience in id order after the broadcast's claim_cursor
 * get a row, eligible or skipped with the reason (spec 8.3), and the cursor moves past them: each
 * batch reads only its own contacts (a NOT IN over the rows already made read them all again,
 * every batch: 370 contacts/s and falling at 100,000). A contact that joins the audience behind
 * the cursor during the send is not reached. The unique (broadcast_id, contact_id) index makes a second row for a
 * contact impossible, so no resume and no concurrent run reaches anyone twice. The broadcast is
 * found as the caller; it is locked and its email rows are read and written through the service
 * door (docs/decisions.md, "The database is the boundary": no member writes broadcasts or
 * email_sends).
 */
export async function claimBroadcastBatch(
  db: Db,
  input: { workspaceId: string; broadcastId: string; batchSize?: number; runner?: string },
): Promise<Claim> {
  const size = input.batchSize ?? BROADCAST_BATCH_SIZE;
  const broadcast = await getBroadcast(db, input);
  if (!broadcast) return refused("not_found", "Broadcast not found.");
  return writeBroadcast(db, input.workspaceId, () =>
    claimAsService(db, input.workspaceId, broadcast, size, input.runner ?? null),
  );
}

/** claimBroadcastBatch's work once the caller is checked, as the service. */
async function claimAsService(
  db: Db,
  workspaceId: string,
  broadcast: NonNullable<Awaited<ReturnType<typeof getBroadcast>>>,
  size: number,
  runner: string | null,
): Promise<Claim> {
  const [{ status, claim_cursor: cursor, ...ab }] = await db<
    {
      status: string;
      claim_cursor: string | null;
      ab_test_share: number | null;
      ab_decide_at: Date | null;
      ab_decided_at: Date | null;
      ab_winner_variant: number | null;
      variants: AbVariant[];
    }[]
  >`
    select status, claim_cursor, ab_test_share, ab_decide_at, ab_decided_at, ab_winner_variant,
           coalesce((select json_agg(v order by v.position) from public.broadcast_variants v
                     where v.broadcast_id = b.id and v.workspace_id = b.workspace_id), '[]') as variants
    from public.broadcasts b where id = ${broadcast.id} for update`;
  if (!RUNNABLE.includes(status)) return { queued: [], stopped: true };
  const split = abSplit(ab);

  // Rows still 'queued' that are this runner's own (its attempt before a crash), released, or
  // whose lease ran out (another run that died); rows another live run is delivering are left to
  // it, so two runs never spend the provider's rate on the same batch.
  const leftover = await db<QueuedEmail[]>`
    update public.email_sends
    set lease_until = now() + make_interval(secs => ${BROADCAST_LEASE_SECONDS}), lease_owner = ${runner}
    where id in (
      select id from public.email_sends
      where broadcast_id = ${broadcast.id} and status = 'queued'
        and (lease_until is null or lease_until < now() or lease_owner is not distinct from ${runner}::text)
      order by id limit ${size})
    returning id, to_email, subject, html, text_body, headers, variant`;
  if (leftover.length) return { queued: leftover };
  // the test share is sent and waits for its decision (lib/email/flows/decide-ab-test.ts)
  if (split?.phase === "test" && ab.ab_decide_at) {
    await redecideIfDue(db, { workspaceId, broadcastId: broadcast.id, decideAt: ab.ab_decide_at });
    return { queued: [], stopped: true };
  }

  // an A/B broadcast's variant per contact: in the test, its bucket's; after the decision, the winner's
  const subjects = split?.variants.map((v) => v.subject) ?? [];
  const preheaders = split?.variants.map((v) => preheaderHtml(v.preheader)) ?? [];
  const variantSql = !split
    ? db`null::smallint`
    : split.phase === "test"
      ? db`(b.bucket % ${split.variants.length})::smallint`
      : db`${split.winner}::smallint`;
  // Rendered in the database (renderedMarketingSql): the rows never travel to this process and
  // back, so a batch costs about what the plain insert of its rows costs.
  const direct = resendClient() === null; // the dev outbox: stored is delivered
  // the email in the contact's language when the broadcast has it (never with an A/B test: ab-test.ts)
  const translations = split
    ? []
    : Object.entries(broadcast.translations ?? {}).map(([lang, t]) => ({
        lang,
        subject: t!.subject,
        html: t!.body_html,
        text: t!.body_text,
      }));
  const langSql = translations.length
    ? db`lower(split_part(coalesce(c.locale, ''), '-', 1))`
    : db`null::text`;
  const subjectSql = languageCase(
    db,
    db`r.lang`,
    translations,
    (t) => db`${t.subject}::text`,
    db`coalesce((${subjects}::text[])[r.variant + 1], ${broadcast.subject})`,
  );
  const [claimed] = await db<{ last_id: string | null; queued: QueuedEmail[] }[]>`
    with batch as (
      select c.id, c.email, c.first_name, c.last_name, c.city, c.country, ${marketingSkipReasonSql(db)} as skip,
             ${langSql} as lang,
             ${split?.phase === "test" ? abBucketSql(db, db`c.id`, broadcast.id) : db`0`} as bucket
      from public.contacts c
      where ${audienceCondition(db, workspaceId, broadcast.audience)}
        and (${cursor}::uuid is null or c.id > ${cursor}::uuid)
      order by c.id
      limit ${size}
    ), rendered as (
      select b.*, r.html, r.text_body, r.headers, ${variantSql} as variant
      from batch b
      cross join (select id, tracking_url from public.workspaces where id = ${workspaceId}) w
      cross join lateral ${renderedMarketingSql(db, broadcast.body_html, broadcast.body_text, broadcast.audience.topicId, translations)} r
      where ${split?.phase === "test" ? db`b.bucket < ${split.share * 100}` : db`true`}
    ), inserted as (
      insert into public.email_sends
        (workspace_id, contact_id, broadcast_id, to_email, kind, subject, html, text_body, headers,
         status, skip_reason, provider, sent_at, lease_until, lease_owner, variant)
      select ${workspaceId}, r.id, ${broadcast.id}, r.email, 'marketing',
             ${subjectSql},
             case when r.skip is null and coalesce((${preheaders}::text[])[r.variant + 1], '') <> ''
                  then case when r.html ~* '<body[^>]*>'
                            then regexp_replace(r.html, '(<body[^>]*>)', '\\1' || (${preheaders}::text[])[r.variant + 1], 'i')
                            else (${preheaders}::text[])[r.variant + 1] || r.html end
                  else r.html end,
             r.text_body, r.headers,
             case when r.skip is not null then 'skipped' when ${direct} then 'outbox' else 'queued' end,
             r.skip,
             case when r.skip is not null then null when ${direct} then 'outbox' else 'resend' end,
             case when r.skip is null and ${direct} then now() end,
             case when r.skip is null and not ${direct} then now() + make_interval(secs => ${BROADCAST_LEASE_SECONDS}) end,
             case when r.skip is null and not ${direct} then ${runner}::text end,
             r.variant
      from rendered r
      order by r.id
      on conflict (broadcast_id, contact_id) where broadcast_id is not null do nothing
      returning id, to_email, subject, html, text_body, headers, status, variant
    )
    select (select id from batch order by id desc limit 1) as last_id,
           coalesce((select json_agg(i) from inserted i where i.status = 'queued'), '[]') as queued`;
  if (claimed.last_id === null) {
    const [sending] = await db`
      select 1 from public.email_sends where broadcast_id = ${broadcast.id} and status = 'queued' limit 1`;
    if (sending) return { queued: [], stopped: true, othersSending: true };
    if (split?.phase === "test") {
      await awaitAbDecision(db, workspaceId, broadcast.id);
      return { queued: [], stopped: true };
    }
    await db`update public.broadcasts set status = 'sent', sent_at = now() where id = ${broadcast.id}`;
    return { queued: [], stopped: true };
  }
  await db`update public.broadcasts
           set claim_cursor = ${claimed.last_id},
               status = case when status = 'draft' then 'sending' else status end
           where id = ${broadcast.id}`;
  return { queued: claimed.queued };
}

/**
 * A batch's outcome: the provider's ids, or an error; `permanent` when another attempt cannot
 * change it (a refusal of the request itself), else the rows wait for the next attempt.
 */
export type Delivery = { ids: string[] } & (
  { providerIds: string[] } | { error: string; permanent: boolean }
);

/**
 * Phase 2, outside any transaction: one call to Resend's batch endpoint, at the team's pace (a
 * 429 is waited out, not an error: lib/email/flows/pace-provider.ts). The idempotency key is derived
 * from the email rows, so re-delivering the same queued rows after a crash is answered by Resend
 * from its first delivery instead of sending again.
 */
export async function deliverBroadcastBatch(
  broadcastId: string,
  queued: QueuedEmail[],
  signal?: AbortSignal,
  sender: Sender = { from: emailFrom() },
  variantFroms: Record<number, string> = {},
): Promise<Delivery> {
  const ids = queued.map((q) => q.id);
  const key = createHash("sha256")
    .update([...ids].sort().join(","))
    .digest("hex")
    .slice(0, 40);
  return deliverBatch(
    queued.map((q) => ({
      id: q.id,
      sender: { ...sender, from: (q.variant != null && variantFroms[q.variant]) || sender.from },
      email: q,
    })),
    `broadcast-${broadcastId}-${key}`,
    signal,
  );
}

/** One email of a batch call: its row, and who it is from. */
export interface BatchEmail {
  id: string;
  sender: Sender;
  email: Pick<QueuedEmail, "to_email" | "subject" | "html" | "text_body" | "headers">;
}

/**
 * One call to Resend's batch endpoint (at most BROADCAST_BATCH_SIZE emails, each with its own
 * sender) at the team's pace (a 429 is waited out: lib/email/flows/pace-provider.ts), under an
 * idempotency key the caller derives from what it sends, so that sending the same rows again
 * after a crash is answered from the first delivery. Broadcasts and campaign steps share it.
 */
export async function deliverBatch(
  emails: BatchEmail[],
  idempotencyKey: string,
  signal?: AbortSignal,
): Promise<Delivery> {
  const ids = emails.map((e) => e.id);
  const answer = await sendThroughResend(
    (resend) =>
      resend.batch.send(
        emails.map(({ sender, email }) => ({
          from: sender.from,
          ...(sender.replyTo ? { replyTo: sender.replyTo } : {}),
          to: email.to_email,
          subject: email.subject,
          html: email.html,
          text: email.text_body ?? undefined,
          headers: email.headers,
        })),
        { idempotencyKey },
      ),
    signal,
  );
  if (!answer) return { ids, error: "RESEND_API_KEY is not set", permanent: false };
  const { data, error } = answer;
  if (error || !data)
    return {
      ids,
      error: error ? `${error.name}: ${error.message}` : "no answer",
      permanent: isPermanentRefusal(error?.statusCode),
    };
  return { ids, providerIds: data.data.map((d) => d.id) };
}

/**
 * The broadcast pauses itself (only while it is sending: a member's pause or cancel stands), with
 * who paused it and why, shown on its page; false when it was not sending.
 */
export async function pauseBroadcastItself(
  db: Db,
  input: { workspaceId: string; broadcastId: string },
  kind: "provider" | "reputation",
  reason: string,
): Promise<boolean> {
  const paused = await asService(
    db,
    () => db`update public.broadcasts set status = 'paused', pause_kind = ${kind}, paused_reason = ${reason}
             where id = ${input.broadcastId} and workspace_id = ${input.workspaceId} and status = 'sending'
             returning id`,
  );
  return paused.length > 0;
}

/**
 * A run gives up on rows it could not deliver (an outage, the worker stopping): their lease ends
 * now, so the next attempt, or another run, takes them at once under the same idempotency key.
 */
export async function releaseBroadcastRows(db: Db, ids: string[]): Promise<void> {
  await asService(
    db,
    () => db`update public.email_sends set lease_until = null
             where id = any(${ids}::uuid[]) and status = 'queued'`,
  );
}

/** Phase 3: the batch's outcome on its rows, in one statement, through the service door. */
export async function recordBroadcastDelivery(db: Db, delivery: Delivery): Promise<void> {
  await asService(db, () => recordDelivery(db, delivery));
}

async function recordDelivery(db: Db, delivery: Delivery): Promise<void> {
  if ("error" in delivery) {
    await db`update public.email_sends set status = 'failed', skip_reason = ${delivery.error}
             where id = any(${delivery.ids}::uuid[]) and status = 'queued'`;
    metrics().emailSends.labels("broadcast", "failed").inc(delivery.ids.length);
    return;
  }
  metrics().emailSends.labels("broadcast", "sent").inc(delivery.ids.length);
  await db`
    update public.email_sends e set status = 'sent', provider_message_id = v.provider_id, sent_at = now()
    from (select unnest(${delivery.ids}::uuid[]) as id, unnest(${delivery.providerIds}::text[]) as provider_id) v
    where e.id = v.id and e.id = any(${delivery.ids}::uuid[]) and e.status = 'queued'`;
}

export interface BroadcastProgress {
  status: string;
  processed: number;
  sent: number;
  skipped: number;
  failed: number;
  remaining: number;
  done: boolean;
}

export async function broadcastProgress(
  db: Db,
  input: { workspaceId: string; broadcastId: string },
): Promise<BroadcastProgress | null> {
  const broadcast = await getBroadcast(db, input);
  if (!broadcast) return null;
  const [counts] = await db`
    select count(*)::int as processed,
           count(*) filter (where status in ('sent', 'outbox', 'bounced', 'complained'))::int as sent,
           count(*) filter (where status = 'skipped')::int as skipped,
           count(*) filter (where status = 'failed')::int as failed,
           count(*) filter (where status = 'queued')::int as queued
    from public.email_sends where broadcast_id = ${broadcast.id}`;
  const done = broadcast.status === "sent" || broadcast.status === "cancelled";
  const [{ ab }] = await db<{ ab: boolean }[]>`
    select ab_test_share is not null as ab from public.broadcasts where id = ${broadcast.id}`;
  // Claims go through the audience in id order (claimBroadcastBatch), so what is left is the
  // audience past the cursor; a finished broadcast has nothing left and is not counted again. An
  // A/B broadcast walks its audience twice (the test share, then the rest): what is left is the
  // audience without an email of it yet.
  const [{ remaining }] = done
    ? [{ remaining: 0 }]
    : ab
      ? await db`
        select count(*)::int as remaining from public.contacts c
        where ${audienceCondition(db, input.workspaceId, broadcast.audience)}
          and not exists (select 1 from public.email_sends e
                          where e.broadcast_id = ${broadcast.id} and e.contact_id = c.id)`
      : await db`
        select count(*)::int as remaining from public.contacts c
        where ${audienceCondition(db, input.workspaceId, broadcast.audience)}
          and c.id > coalesce((select claim_cursor from public.broadcasts where id = ${broadcast.id}),
                              '00000000-0000-0000-0000-000000000000'::uuid)`;
  return {
    status: broadcast.status,
    processed: counts.processed,
    sent: counts.sent,
    skipped: counts.skipped,
    failed: counts.failed,
    remaining: done ? 0 : remaining + counts.queued,
    done,
  };
}
