import type { Metadata } from "next";
import Link from "next/link";
import { requireMember } from "@/lib/auth/context";
import { withUser } from "@/lib/db/doors";
import { formatDateOnly, formatDateTime, todayIn } from "@/lib/time/format";
import { listTasks, type TaskItem } from "@/lib/tasks/list-tasks";
import { CompleteTaskForm } from "@/components/tasks/complete-task-form";
import { completeTaskAction } from "./actions";

export const metadata: Metadata = { title: "Tasks" };

/** Spec 3.6: open tasks (refund reviews with their description and due date) and completed ones with their closing note. */
export default async function TasksPage() {
  const ctx = await requireMember();
  const workspaceId = ctx.workspace.workspaceId;
  const timeZone = ctx.timeZone;
  const { open, completed } = await withUser(ctx.claims, async (db) => ({
    open: await listTasks(db, { workspaceId, status: "open" }),
    completed: await listTasks(db, { workspaceId, status: "completed", limit: 50 }),
  }));
  const today = todayIn(timeZone);
  return (
    <>
      <h1>Tasks</h1>
      <section aria-labelledby="open-heading" className="stack">
        <h2 id="open-heading">Open ({open.length})</h2>
        {open.length === 0 && <div className="card empty">No open tasks.</div>}
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
      </section>
      <section aria-labelledby="done-heading" className="stack">
        <h2 id="done-heading">Completed</h2>
        {completed.length === 0 && <div className="card empty">No completed tasks yet.</div>}
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
