import { z } from "zod";
import type { Db } from "@/lib/db/doors";
import { AppError } from "@/lib/errors/app-error";
import { writeBroadcast } from "./broadcast-door";
import type { AbMetric, AbVariantNumbers } from "./ab-decision";
import { displayName, type Sender } from "./sender";

const VARIANT_COUNT = "An A/B test has 2 to 5 variants.";
const SHARE = "The test share is 10 to 50 percent of the audience.";
const HOURS = "Decide after 1 to 168 hours (a week).";

/** One variant as the composer and the API take it. */
export const abVariantSchema = z.object({
  subject: z
    .string()
    .trim()
    .min(1, "Write the variant's subject.")
    .max(200, "Keep the subject under 200 characters."),
  preheader: z.string().trim().max(200, "Keep the preheader under 200 characters.").default(""),
  senderName: z.string().trim().max(70, "Keep the sender name under 70 characters.").default(""),
});

/** An A/B test of a broadcast (docs/decisions.md, "A/B tests of broadcasts"). */
export const abTestSchema = z.object({
  variants: z.array(abVariantSchema).min(2, VARIANT_COUNT).max(5, VARIANT_COUNT),
  share: z.number({ error: SHARE }).int(SHARE).min(10, SHARE).max(50, SHARE),
  metric: z.enum(["opens", "clicks", "revenue"], { error: "Choose opens, clicks or revenue." }),
  decideAfterHours: z.number({ error: HOURS }).int(HOURS).min(1, HOURS).max(168, HOURS),
});
export type AbTest = z.output<typeof abTestSchema>;

export interface AbVariant {
  position: number;
  subject: string;
  preheader: string | null;
  sender_name: string | null;
}

/** A broadcast's test as stored, with its decision when made; null for a broadcast without one. */
export interface StoredAbTest {
  share: number;
  metric: AbMetric;
  decideAfterHours: number;
  decideAt: Date | null;
  winner: number | null;
  decidedAt: Date | null;
  note: string | null;
  variants: AbVariant[];
}

/**
 * A draft's A/B test, replaced whole (null removes it), in the caller's transaction through the
 * service door: a broadcast that left the draft state keeps the test it was sent with.
 */
export async function saveAbTest(
  db: Db,
  input: { workspaceId: string; broadcastId: string; abTest: AbTest | null },
): Promise<void> {
  const { workspaceId, broadcastId, abTest } = input;
  await writeBroadcast(db, workspaceId, async () => {
    const [row] = await db`
      update public.broadcasts
      set ab_test_share = ${abTest?.share ?? null}, ab_winner_metric = ${abTest?.metric ?? null},
          ab_decide_after_hours = ${abTest?.decideAfterHours ?? null}
      where id = ${broadcastId} and workspace_id = ${workspaceId} and status = 'draft'
      returning id, translations <> '{}'::jsonb as translated`;
    if (!row) throw new AppError("conflict", "Only a draft's A/B test can change.");
    // an A/B test compares subjects in one language (docs/decisions.md, "Recipient languages")
    if (abTest && row.translated)
      throw new AppError(
        "invalid",
        "A broadcast with an A/B test is sent in one language: remove its translations or the test.",
        { field: "ab_test" },
      );
    await db`delete from public.broadcast_variants where broadcast_id = ${broadcastId} and workspace_id = ${workspaceId}`;
    if (!abTest) return;
    const rows = abTest.variants.map((v, position) => ({
      workspace_id: workspaceId,
      broadcast_id: broadcastId,
      position,
      subject: v.subject,
      preheader: v.preheader || null,
      sender_name: v.senderName || null,
    }));
    await db`insert into public.broadcast_variants ${db(rows)}`;
  });
}

/** The broadcast's A/B test, read as the caller (members read both tables). */
export async function loadAbTest(
  db: Db,
  input: { workspaceId: string; broadcastId: string },
): Promise<StoredAbTest | null> {
  const [row] = await db<
    {
      share: number | null;
      metric: AbMetric;
      hours: number;
      decide_at: Date | null;
      winner: number | null;
      decided_at: Date | null;
      note: string | null;
      variants: AbVariant[];
    }[]
  >`
    select b.ab_test_share as share, b.ab_winner_metric as metric, b.ab_decide_after_hours as hours,
           b.ab_decide_at as decide_at, b.ab_winner_variant as winner, b.ab_decided_at as decided_at,
           b.ab_decision_note as note,
           coalesce((select json_agg(json_build_object('position', v.position, 'subject', v.subject,
                                                       'preheader', v.preheader, 'sender_name', v.sender_name)
                                     order by v.position)
                     from public.broadcast_variants v
                     where v.broadcast_id = b.id and v.workspace_id = b.workspace_id), '[]') as variants
    from public.broadcasts b
    where b.id = ${input.broadcastId} and b.workspace_id = ${input.workspaceId}`;
  if (!row || row.share === null || row.variants.length < 2) return null;
  return {
    share: row.share,
    metric: row.metric,
    decideAfterHours: row.hours,
    decideAt: row.decide_at && new Date(row.decide_at),
    winner: row.winner,
    decidedAt: row.decided_at && new Date(row.decided_at),
    note: row.note,
    variants: row.variants,
  };
}

/** The composer's and the API's shape of a stored test (to edit or duplicate it). */
export function abTestInput(stored: StoredAbTest): AbTest {
  return {
    share: stored.share,
    metric: stored.metric,
    decideAfterHours: stored.decideAfterHours,
    variants: stored.variants.map((v) => ({
      subject: v.subject,
      preheader: v.preheader ?? "",
      senderName: v.sender_name ?? "",
    })),
  };
}

/**
 * Each variant's From: its sender name as the display name at the address the broadcast sends
 * from (the variants change the name only, never the address). A variant without one is absent.
 */
export function variantSenders(variants: AbVariant[], sender: Sender): Record<number, string> {
  const address = /<([^<>]+)>\s*$/.exec(sender.from)?.[1]?.trim() ?? sender.from.trim();
  const froms: Record<number, string> = {};
  for (const v of variants) {
    const name = v.sender_name ? displayName(v.sender_name) : "";
    if (name) froms[v.position] = `"${name}" <${address}>`;
  }
  return froms;
}

/** A preheader as the hidden first text of the email's body (what inboxes show after the subject). */
export function preheaderHtml(preheader: string | null): string {
  if (!preheader) return "";
  const escaped = preheader
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("\\", "&#92;");
  return `<div style="display:none;max-height:0;overflow:hidden;mso-hide:all">${escaped}</div>`;
}

/**
 * Each variant's test numbers. The test's emails are the variant rows made before the decision
 * (the rest of the audience gets the winner's position after it, in later transactions). Opens
 * and clicks are sends with a human one (email_send_stats, machine ones excluded); revenue is what
 * the recipient paid, net of refunds, from the email's sending to the decision time (the window the
 * test was given; before it is set, to now).
 */
export async function abVariantNumbers(
  db: Db,
  input: { workspaceId: string; broadcastId: string },
): Promise<AbVariantNumbers[]> {
  return db<AbVariantNumbers[]>`
    select v.position,
           count(e.id) filter (where e.status in ('sent', 'outbox', 'bounced', 'complained'))::int as sent,
           count(t.human_opened_at)::int as "humanOpens",
           count(t.human_clicked_at)::int as "humanClicks",
           count(p.paid)::int as purchasers,
           coalesce(sum(p.paid), 0)::float8 as revenue
    from public.broadcast_variants v
    join public.broadcasts b on b.id = v.broadcast_id and b.workspace_id = v.workspace_id
    left join public.email_sends e
      on e.broadcast_id = v.broadcast_id and e.workspace_id = v.workspace_id and e.variant = v.position
         and (b.ab_decided_at is null or e.created_at < b.ab_decided_at)
    left join public.email_send_stats t on t.email_send_id = e.id and t.workspace_id = e.workspace_id
    left join lateral (
      select nullif(sum(x.amount_paid - x.amount_refunded), 0) as paid
      from public.transactions x
      where e.sent_at is not null and x.contact_id = e.contact_id and x.workspace_id = e.workspace_id
        and x.transaction_date >= e.sent_at and x.transaction_date <= coalesce(b.ab_decide_at, now())) p on true
    where v.broadcast_id = ${input.broadcastId} and v.workspace_id = ${input.workspaceId}
    group by v.position
    order by v.position`;
}
