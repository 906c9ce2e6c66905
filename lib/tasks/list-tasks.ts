import type { Db } from "@/lib/db/doors";

export interface TaskItem {
  id: string;
  title: string;
  description: string | null;
  kind: string;
  status: string;
  dueDate: string | null;
  completedAt: Date | null;
  assignee: string | null;
  contactId: string | null;
  contactEmail: string | null;
  /** completed tasks: the latest task note (the closing reason) */
  closingNote: string | null;
  closedBySystem: boolean;
}

/** Spec 3.6's two lists: open (open or in progress) and completed. */
const statusIs = (db: Db, status: "open" | "completed") =>
  status === "open" ? db`t.status in ('open', 'in_progress')` : db`t.status = 'completed'`;

/**
 * Spec 3.6: the workspace's open tasks (due first) and its latest completed ones with their
 * closing note. One query per list; RLS limits them to the member's workspaces.
 */
export async function listTasks(
  db: Db,
  input: { workspaceId: string; status: "open" | "completed"; limit?: number; offset?: number },
): Promise<TaskItem[]> {
  const open = input.status === "open";
  const rows = await db`
    select t.id, t.title, t.description, t.kind, t.status, t.due_date, t.completed_at,
           nullif(concat_ws(' ', u.first_name, u.last_name), '') as assignee,
           c.id as contact_id, c.email as contact_email,
           n.content_text as closing_note, (n.id is not null and n.created_by is null) as closed_by_system
    from public.tasks t
    left join public.user_profiles u on u.id = t.assigned_user_id
    left join public.contacts c on c.id = t.contact_id
    left join lateral (
      select id, content_text, created_by from public.notes
      where task_id = t.id and type = 'task' order by created_at desc limit 1
    ) n on not ${open}
    where t.workspace_id = ${input.workspaceId}
      and ${statusIs(db, input.status)}
    order by ${open ? db`t.due_date nulls last, t.created_at` : db`t.completed_at desc nulls last`}, t.id
    limit ${input.limit ?? 100} offset ${input.offset ?? 0}`;
  return rows.map((r) => ({
    id: r.id,
    title: r.title,
    description: r.description,
    kind: r.kind,
    status: r.status,
    dueDate: r.due_date,
    completedAt: r.completed_at,
    assignee: r.assignee,
    contactId: r.contact_id,
    contactEmail: r.contact_email,
    closingNote: r.closing_note,
    closedBySystem: Boolean(r.closed_by_system),
  }));
}

/** How many open or completed tasks the workspace has: the list's heading and its pager. */
export async function countTasks(
  db: Db,
  input: { workspaceId: string; status: "open" | "completed" },
): Promise<number> {
  const [row] = await db`
    select count(*)::int as n from public.tasks t
    where t.workspace_id = ${input.workspaceId}
      and ${statusIs(db, input.status)}`;
  return row.n;
}
