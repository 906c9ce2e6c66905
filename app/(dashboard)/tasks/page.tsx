import type { Metadata } from "next";
import Link from "next/link";
import { ListPager } from "@/components/ui/pagination";
import { requireMember } from "@/lib/auth/context";
import { withReadUser } from "@/lib/db/doors";
import { pageParam, pageSlice } from "@/lib/http/page-param";
import { formatDateOnly, formatDateTime, todayIn } from "@/lib/time/format";
import { countTasks, listTasks, type TaskItem } from "@/lib/tasks/list-tasks";
import { CompleteTaskForm } from "@/components/tasks/complete-task-form";
import { completeTaskAction } from "./actions";

export const metadata: Metadata = { title: "Tasks" };

type TasksSearch = { open?: string | string[]; done?: string | string[] };

/**
 * Spec 3.6: open tasks (refund reviews with their description and due date) and completed ones
 * with their closing note, each list a page at a time (`?open=`, `?done=`) under its total.
 */
export default async function TasksPage({ searchParams }: { searchParams: Promise<TasksSearch> }) {
  const ctx = await requireMember();
  const workspaceId = ctx.workspace.workspaceId;
  const timeZone = ctx.timeZone;
  const sp = await searchParams;
  const pages = { open: pageParam(sp.open), done: pageParam(sp.done) };
  const [open, openTotal, completed, completedTotal] = await withReadUser(ctx.claims, (db) =>
    Promise.all([
      listTasks(db, { workspaceId, status: "open", ...pageSlice(pages.open) }),
      countTasks(db, { workspaceId, status: "open" }),
      listTasks(db, { workspaceId, status: "completed", ...pageSlice(pages.done) }),
      countTasks(db, { workspaceId, status: "completed" }),
    ]),
  );
  const href = (list: "open" | "done") => (p: number) => {
    const params = new URLSearchParams();
    const next = { ...pages, [list]: p };
    if (next.open > 1) params.set("open", String(next.open));
    if (next.done > 1) params.set("done", String(next.done));
    const query = params.toString();
    return query ? `/tasks?${query}` : "/tasks";
  };
  const today = todayIn(timeZone);
  return (
    <>
      <h1>Tasks</h1>
      <section aria-labelledby="open-heading" className="stack">
        <h2 id="open-heading">Open ({openTotal.toLocaleString("en-US")})</h2>
        {openTotal === 0 && <div className="card empty">No open tasks.</div>}
        <ul className="stack" style={{ listStyle: "none", padding: 0, margin: 0 }}>
          {open.map((task) => (
            <li key={task.id} className="card stack" data-testid="open-task">
              <TaskHeading task={task} />
              <p className="hint" style={{ margin: 0 }}>
                {task.dueDate ? (
                  <>
                    Due <time dateTime={task.dueDate}>{formatDateOnly(task.dueDate)}</time>
                    {task.dueDate < today && <strong className="field-error"> (overdue)</strong>}
                  </>
                ) : (
                  "No due date"
                )}
                {task.assignee && ` · Assigned to ${task.assignee}`}
              </p>
              {task.description && <div style={{ whiteSpace: "pre-wrap" }}>{task.description}</div>}
              <CompleteTaskForm action={completeTaskAction} taskId={task.id} title={task.title} />
            </li>
          ))}
        </ul>
        <ListPager page={pages.open} total={openTotal} href={href("open")} label="Open tasks pages" />
      </section>
      <section aria-labelledby="done-heading" className="stack">
        <h2 id="done-heading">Completed ({completedTotal.toLocaleString("en-US")})</h2>
        {completedTotal === 0 && <div className="card empty">No completed tasks yet.</div>}
        <ul className="stack" style={{ listStyle: "none", padding: 0, margin: 0 }}>
          {completed.map((task) => (
            <li key={task.id} className="card stack" data-testid="completed-task">
              <TaskHeading task={task} />
              <p className="hint" style={{ margin: 0 }}>
                Completed{" "}
                {task.completedAt && (
                  <time dateTime={task.completedAt.toISOString()}>
                    {formatDateTime(task.completedAt, timeZone)}
                  </time>
                )}
              </p>
              {task.closingNote && (
                <p style={{ margin: 0 }}>
                  <span className="hint">{task.closedBySystem ? "System" : "Note"}: </span>
                  {task.closingNote}
                </p>
              )}
            </li>
          ))}
        </ul>
        <ListPager
          page={pages.done}
          total={completedTotal}
          href={href("done")}
          label="Completed tasks pages"
        />
      </section>
    </>
  );
}

function TaskHeading({ task }: { task: TaskItem }) {
  return (
    <div className="row" style={{ justifyContent: "space-between" }}>
      <h3 style={{ margin: 0, fontSize: "1rem" }}>{task.title || "Task"}</h3>
      {task.kind === "refund_review" && <span className="badge">Refund review</span>}
      {task.contactId && (
        <Link href={`/contacts/${task.contactId}#transactions`}>
          {task.contactEmail}
          <span className="sr-only"> (transactions)</span>
        </Link>
      )}
    </div>
  );
}
