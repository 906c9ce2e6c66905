import { z } from "zod";
import type { Db } from "@/lib/db/doors";
import { textToHtml } from "@/lib/notes/add-note";
import {
  audienceCondition,
  audienceSchema,
  marketingSkipReasonSql,
  type Audience,
} from "./broadcast-audience";
import { UNSUBSCRIBE_TAG } from "./render-email";
import { isUuid } from "@/lib/ids/uuid";
import { LOCALES, type Locale } from "@/lib/i18n/locales";
import { AppError, unwrap } from "@/lib/errors/app-error";
import { writeBroadcast } from "./broadcast-door";
import type { BroadcastSender } from "./from-address";
import { abTestInput, loadAbTest, saveAbTest } from "./ab-test";
import { loadBranding } from "./branding";
import { compileTemplate } from "./email-template";
import { MergeTagError, parseMergeTemplate } from "./merge-tags";
import { getSegment } from "@/lib/segments/get-segment";
import { segmentFilterSchema } from "@/lib/segments/filter";
import { segmentFields } from "@/lib/segments/compile";

/** The audience with its segment's filter (null: the stored filter no longer parses: no one). */
function withSegment(audience: Audience, segmentId: string | null, filter: unknown): Audience {
  if (!segmentId) return audience;
  const parsed = segmentFilterSchema.safeParse(filter);
  return { ...audience, segmentId, segment: parsed.success ? parsed.data : null };
}

export const broadcastSchema = z.object({
  subject: z.string().trim().min(1, "Write a subject.").max(200, "Keep the subject under 200 characters."),
  body: z
    .string()
    .trim()
    .min(1, "Write the message.")
    .max(50_000, "Keep the message under 50,000 characters."),
  audience: audienceSchema,
  /** 'markdown': the editor's Markdown in the branded layout; 'text': plain text, as before */
  format: z.enum(["text", "markdown"]).default("text"),
  /**
   * the email in other languages, by shipped code, in the broadcast's format: a contact whose locale is
   * one of them gets it (docs/decisions.md, "Recipient languages")
   */
  translations: z
    .partialRecord(
      z.enum(LOCALES, { error: "Translations are in en, es, fr or de." }),
      z.object({
        subject: z
          .string()
          .trim()
          .min(1, "Write the translation's subject.")
          .max(200, "Keep the subject under 200 characters."),
        body: z
          .string()
          .trim()
          .min(1, "Write the translation's message.")
          .max(50_000, "Keep the message under 50,000 characters."),
      }),
    )
    .default({}),
});

/** A translation as stored: what was written, and the parts as sent. */
export interface StoredTranslation {
  subject: string;
  body: string;
  body_text: string;
  body_html: string;
}
export type StoredTranslations = Partial<Record<Locale, StoredTranslation>>;

/** Each translation's parts, composed and checked as the broadcast's own message is (field `translations.<code>.body`). */
async function composeTranslations(
  db: Db,
  input: {
    workspaceId: string;
    format: "text" | "markdown";
    translations?: z.input<typeof broadcastSchema>["translations"];
  },
): Promise<StoredTranslations> {
  const out: StoredTranslations = {};
  for (const [code, t] of Object.entries(input.translations ?? {}) as [
    Locale,
    { subject: string; body: string },
  ][]) {
    if (!t) continue;
    try {
      const parts = await composeBroadcast(db, {
        workspaceId: input.workspaceId,
        body: t.body,
        format: input.format,
      });
      out[code] = {
        subject: t.subject,
        body: t.body,
        body_text: parts.body_text,
        body_html: parts.body_html,
      };
    } catch (error) {
      if (error instanceof AppError && error.field === "body")
        throw new AppError(error.code, error.message, { field: `translations.${code}.body` });
      throw error;
    }
  }
  return out;
}

export interface BroadcastRow {
  id: string;
  subject: string;
  body_text: string;
  body_html: string;
  audience: Audience;
  status: "draft" | "scheduled" | "sending" | "paused" | "cancelled" | "sent" | "failed";
  created_at: Date;
  sent_at: Date | null;
  body_markdown: string | null;
  scheduled_at: Date | null;
  from_name: string | null;
  from_local: string | null;
  from_domain: string | null;
  reply_to: string | null;
  translations: StoredTranslations;
}

/** Plain text as the email's HTML; the {{unsubscribe_url}} tag becomes a link. */
export function broadcastHtml(text: string): string {
  return textToHtml(text).replaceAll(UNSUBSCRIBE_TAG, `<a href="${UNSUBSCRIBE_TAG}">Unsubscribe</a>`);
}

/**
 * A broadcast's stored parts from what the member wrote: Markdown compiled into the branded
 * layout, or plain text as it always was. Either way every merge tag is checked here, when it is
 * saved: an unknown one is refused with `unknown_merge_tag` beside the message.
 */
export async function composeBroadcast(
  db: Db,
  input: { workspaceId: string; body: string; format: "text" | "markdown" },
): Promise<{ body_text: string; body_html: string; body_markdown: string | null }> {
  try {
    if (input.format === "text") {
      parseMergeTemplate(input.body);
      return { body_text: input.body, body_html: broadcastHtml(input.body), body_markdown: null };
    }
    const compiled = await compileTemplate(input.body, await loadBranding(db, input.workspaceId));
    return { body_text: compiled.text, body_html: compiled.html, body_markdown: input.body };
  } catch (error) {
    if (error instanceof MergeTagError)
      throw new AppError("unknown_merge_tag", error.message, { field: "body" });
    throw error;
  }
}

export async function createBroadcast(
  db: Db,
  input: { workspaceId: string; createdBy: string | null; sender?: BroadcastSender } & z.input<
    typeof broadcastSchema
  >,
): Promise<{ id: string }> {
  const parts = await composeBroadcast(db, { ...input, format: input.format ?? "text" });
  const translations = await composeTranslations(db, { ...input, format: input.format ?? "text" });
  // the topic and the segment are columns (their foreign keys keep them in the workspace), not
  // part of the jsonb
  const { topicId, segmentId, ...audience } = audienceSchema.parse(input.audience);
  if (segmentId) unwrap(await getSegment(db, { workspaceId: input.workspaceId, segmentId }), "segmentId");
  const sender = input.sender ?? NO_SENDER;
  const [row] = await writeBroadcast(
    db,
    input.workspaceId,
    () => db`
      insert into public.broadcasts
        (workspace_id, subject, body_text, body_html, body_markdown, audience, created_by, topic_id, segment_id,
         from_name, from_local, from_domain, reply_to, translations)
      values (${input.workspaceId}, ${input.subject}, ${parts.body_text}, ${parts.body_html}, ${parts.body_markdown},
              ${db.json(audience)}, ${input.createdBy}, ${topicId ?? null}, ${segmentId ?? null},
              ${sender.fromName}, ${sender.fromLocal}, ${sender.fromDomain}, ${sender.replyTo},
              ${db.json(translations as never)})
      returning id`,
  );
  return { id: row.id };
}

/** A draft's new subject, message, audience and sender; any other state is refused (it may be sending). */
export async function updateBroadcast(
  db: Db,
  input: { workspaceId: string; broadcastId: string; sender?: BroadcastSender } & Omit<
    z.output<typeof broadcastSchema>,
    "translations"
  > & { translations?: z.output<typeof broadcastSchema>["translations"] },
): Promise<boolean> {
  if (!isUuid(input.broadcastId)) return false;
  const parts = await composeBroadcast(db, input);
  const translations = await composeTranslations(db, input);
  const { topicId, segmentId, ...audience } = input.audience;
  if (segmentId) unwrap(await getSegment(db, { workspaceId: input.workspaceId, segmentId }), "segmentId");
  const sender = input.sender ?? NO_SENDER;
  const [row] = await writeBroadcast(
    db,
    input.workspaceId,
    () => db`
      update public.broadcasts
      set subject = ${input.subject}, body_text = ${parts.body_text}, body_html = ${parts.body_html},
          body_markdown = ${parts.body_markdown}, audience = ${db.json(audience)}, topic_id = ${topicId ?? null},
          segment_id = ${segmentId ?? null}, from_name = ${sender.fromName}, from_local = ${sender.fromLocal},
          from_domain = ${sender.fromDomain}, reply_to = ${sender.replyTo},
          translations = ${db.json(translations as never)}
      where id = ${input.broadcastId} and workspace_id = ${input.workspaceId} and status = 'draft'
      returning id`,
  );
  return Boolean(row);
}

/** No sender of the broadcast's own: the workspace's From and reply-to. */
const NO_SENDER: BroadcastSender = { fromName: null, fromLocal: null, fromDomain: null, replyTo: null };

/** The broadcast's own sender as the composer and a copy take it. */
export const senderOfRow = (row: BroadcastRow): BroadcastSender => ({
  fromName: row.from_name,
  fromLocal: row.from_local,
  fromDomain: row.from_domain,
  replyTo: row.reply_to,
});

/**
 * A draft copy of a broadcast of the workspace: its subject, message, audience and sender (the
 * sender checks its From's domain again when it sends), nothing of
 * how it was sent. Markdown is compiled again, so the copy carries the branding as it is now.
 */
export async function duplicateBroadcast(
  db: Db,
  input: { workspaceId: string; broadcastId: string; createdBy: string },
): Promise<{ id: string } | null> {
  const source = await getBroadcast(db, input);
  if (!source) return null;
  const abTest = await loadAbTest(db, input);
  const copy = await createBroadcast(db, {
    workspaceId: input.workspaceId,
    createdBy: input.createdBy,
    subject: source.subject,
    body: source.body_markdown ?? source.body_text,
    format: source.body_markdown === null ? "text" : "markdown",
    audience: source.audience,
    sender: senderOfRow(source),
    translations: Object.fromEntries(
      Object.entries(source.translations).map(([code, t]) => [code, { subject: t!.subject, body: t!.body }]),
    ),
  });
  // an A/B test's variants and settings come along; its decision does not
  if (abTest)
    await saveAbTest(db, {
      workspaceId: input.workspaceId,
      broadcastId: copy.id,
      abTest: abTestInput(abTest),
    });
  return copy;
}

export async function getBroadcast(db: Db, input: { workspaceId: string; broadcastId: string }) {
  if (!isUuid(input.broadcastId)) return null;
  const [row] = await db<
    (BroadcastRow & {
      topic_id: string | null;
      segment_id: string | null;
      segment_filter: unknown;
      paused_reason: string | null;
      pause_kind: "provider" | "reputation" | null;
      warmup_until: Date | null;
    })[]
  >`
    select b.id, b.subject, b.body_text, b.body_html, b.audience, b.status, b.created_at, b.sent_at, b.topic_id,
           b.body_markdown, b.scheduled_at, b.segment_id, b.paused_reason, b.pause_kind, s.filter as segment_filter,
           b.warmup_until, b.from_name, b.from_local, b.from_domain, b.reply_to, b.translations
    from public.broadcasts b
    left join public.segments s on s.id = b.segment_id and s.workspace_id = b.workspace_id
    where b.id = ${input.broadcastId} and b.workspace_id = ${input.workspaceId}`;
  if (!row) return null;
  const { topic_id: topicId, segment_id: segmentId, segment_filter: segmentFilter, ...broadcast } = row;
  const audience = withSegment(
    audienceSchema.parse({ ...row.audience, topicId: topicId ?? undefined }),
    segmentId,
    segmentFilter,
  );
  if (audience.segment) audience.segmentFields = await segmentFields(db, input.workspaceId, audience.segment);
  return { ...broadcast, audience };
}

export async function listBroadcasts(db: Db, workspaceId: string) {
  return db<(BroadcastRow & { sent: number; skipped: number })[]>`
    select b.id, b.subject, b.status, b.created_at, b.sent_at, b.scheduled_at,
           count(e.id) filter (where e.status in ('sent', 'outbox', 'bounced', 'complained'))::int as sent,
           count(e.id) filter (where e.status = 'skipped')::int as skipped
    from public.broadcasts b
    left join public.email_sends e on e.broadcast_id = b.id
    where b.workspace_id = ${workspaceId}
    group by b.id
    order by b.created_at desc
    limit 100`;
}

export interface BroadcastPreview {
  total: number;
  eligible: number;
  skipped: { reason: string; count: number }[];
}

/** Before sending: how many of the audience may get marketing email, and why the others are skipped (spec 8.3). */
export async function previewBroadcast(
  db: Db,
  input: { workspaceId: string; audience: Audience },
): Promise<BroadcastPreview> {
  const { workspaceId, audience } = input;
  if (audience.segmentId && audience.segment === undefined) {
    const segment = await getSegment(db, { workspaceId, segmentId: audience.segmentId });
    const filter = "error" in segment ? null : segment.data.filter;
    const fields = filter ? await segmentFields(db, workspaceId, filter) : undefined;
    input = { workspaceId, audience: { ...audience, segment: filter, segmentFields: fields } };
  }
  const rows = await db<{ reason: string | null; count: number }[]>`
    select reason, count(*)::int as count
    from (select ${marketingSkipReasonSql(db)} as reason
          from public.contacts c where ${audienceCondition(db, input.workspaceId, input.audience)}) r
    group by reason
    order by count(*) desc, reason`;
  const total = rows.reduce((sum, r) => sum + r.count, 0);
  const eligible = rows.find((r) => r.reason === null)?.count ?? 0;
  return {
    total,
    eligible,
    skipped: rows.filter((r) => r.reason !== null).map((r) => ({ reason: r.reason!, count: r.count })),
  };
}
