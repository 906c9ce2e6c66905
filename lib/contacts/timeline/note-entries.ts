import { afterPosition, authorSql, microsSql, type TimelineSource } from "./types";

/** Notes of type 'contact': by members, or by the system (created_by null, 'System'). */
export const noteEntries: TimelineSource = {
  kind: "note",
  query: (db, q) => db`(
    select n.created_at as at, ${microsSql(db, "n.created_at")} as micros, 'note' as kind, n.id::text as id,
      ${authorSql(db, "n.created_by")} as author,
      jsonb_build_object('html', n.content, 'text', n.content_text) as d
    from public.notes n
    where n.contact_id = ${q.contactId} and n.workspace_id = ${q.workspaceId} and n.type = 'contact'
      ${afterPosition(db, "note", "n.created_at", "n.id", q.before)}
    order by n.created_at desc, n.id desc
    limit ${q.limit})`,
  render: (r) => ({ html: String(r.d.html ?? ""), text: String(r.d.text ?? "") }),
};
