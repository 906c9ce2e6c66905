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
import { unwrap } from "@/lib/errors/app-error";
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
  const { segmentId, ...audience } = input.audience;
  if (segmentId) unwrap(await getSegment(db, { workspaceId: input.workspaceId, segmentId }), "segmentId");
  const [row] = await db`
    insert into public.broadcasts (workspace_id, subject, body_text, body_html, audience, created_by, segment_id)
    values (${input.workspaceId}, ${input.subject}, ${input.body}, ${broadcastHtml(input.body)},
            ${db.json(audience)}, ${input.createdBy}, ${segmentId ?? null})
    returning id`;
  return { id: row.id };
}

export async function getBroadcast(db: Db, input: { workspaceId: string; broadcastId: string }) {
  if (!isUuid(input.broadcastId)) return null;
  const [row] = await db<(BroadcastRow & { segment_id: string | null; segment_filter: unknown })[]>`
    select b.id, b.subject, b.body_text, b.body_html, b.audience, b.status, b.created_at, b.sent_at,
           b.segment_id, s.filter as segment_filter
    from public.broadcasts b
    left join public.segments s on s.id = b.segment_id and s.workspace_id = b.workspace_id
    where b.id = ${input.broadcastId} and b.workspace_id = ${input.workspaceId}`;
  if (!row) return null;
  const { segment_id: segmentId, segment_filter: segmentFilter, ...broadcast } = row;
  const audience = withSegment(audienceSchema.parse(row.audience), segmentId, segmentFilter);
  if (audience.segment) audience.segmentFields = await segmentFields(db, input.workspaceId, audience.segment);
  return { ...broadcast, audience };
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
