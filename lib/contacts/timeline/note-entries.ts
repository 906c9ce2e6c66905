import { afterPosition, authorSql, microsSql, type TimelineSource } from "./types";

interface NoteRow {
  id: string;
  created_at: Date;
  micros: string;
  author: string;
  content: string;
  content_text: string;
}

/** Notes of type 'contact': by members, or by the system (created_by null, 'System'). */
export const noteEntries: TimelineSource = async (db, q) => {
  const rows = await db<NoteRow[]>`
    select n.id, n.created_at, ${microsSql(db, "n.created_at")} as micros, n.content, n.content_text,
      ${authorSql(db, "n.created_by")} as author
    from public.notes n
    where n.contact_id = ${q.contactId} and n.workspace_id = ${q.workspaceId} and n.type = 'contact'
      ${afterPosition(db, "n.created_at", "n.id", q.before)}
    order by n.created_at desc, n.id desc
    limit ${q.limit}`;
  return rows.map((r) => ({
    kind: "note",
    id: r.id,
    occurredAt: r.created_at,
    author: r.author,
    html: r.content,
    text: r.content_text,
    position: { micros: BigInt(r.micros), id: r.id },
  }));
};
