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

export const broadcastSchema = z.object({
  subject: z.string().trim().min(1, "Write a subject.").max(200, "Keep the subject under 200 characters."),
  body: z
    .string()
    .trim()
    .min(1, "Write the message.")
    .max(50_000, "Keep the message under 50,000 characters."),
  audience: audienceSchema,
});

export interface BroadcastRow {
  id: string;
  subject: string;
  body_text: string;
  body_html: string;
  audience: Audience;
  status: "draft" | "sending" | "paused" | "cancelled" | "sent" | "failed";
  created_at: Date;
  sent_at: Date | null;
}

/** Plain text as the email's HTML; the {{unsubscribe_url}} tag becomes a link. */
export function broadcastHtml(text: string): string {
  return textToHtml(text).replaceAll(UNSUBSCRIBE_TAG, `<a href="${UNSUBSCRIBE_TAG}">Unsubscribe</a>`);
}

export async function createBroadcast(
  db: Db,
  input: { workspaceId: string; createdBy: string } & z.output<typeof broadcastSchema>,
): Promise<{ id: string }> {
  // the topic is a column (its foreign key keeps it in the workspace), not part of the jsonb
  const { topicId, ...audience } = input.audience;
  const [row] = await db`
    insert into public.broadcasts (workspace_id, subject, body_text, body_html, audience, created_by, topic_id)
    values (${input.workspaceId}, ${input.subject}, ${input.body}, ${broadcastHtml(input.body)},
            ${db.json(audience)}, ${input.createdBy}, ${topicId ?? null})
    returning id`;
  return { id: row.id };
}

export async function getBroadcast(db: Db, input: { workspaceId: string; broadcastId: string }) {
  if (!isUuid(input.broadcastId)) return null;
  const [row] = await db<(BroadcastRow & { topic_id: string | null })[]>`
    select id, subject, body_text, body_html, audience, status, created_at, sent_at, topic_id
    from public.broadcasts where id = ${input.broadcastId} and workspace_id = ${input.workspaceId}`;
  if (!row) return null;
  const { topic_id: topicId, ...rest } = row;
  return { ...rest, audience: audienceSchema.parse({ ...row.audience, topicId: topicId ?? undefined }) };
}

export async function listBroadcasts(db: Db, workspaceId: string) {
  return db<(BroadcastRow & { sent: number; skipped: number })[]>`
    select b.id, b.subject, b.status, b.created_at, b.sent_at,
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
