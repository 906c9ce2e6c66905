import type { Db } from "@/lib/db/doors";
import { escapeHtml } from "@/lib/html/escape";

export interface AddNoteInput {
  workspaceId: string;
  contactId?: string | null;
  taskId?: string | null;
  type?: "contact" | "task";
  /** the plain-text form; also the source of the HTML form when `html` is not given */
  text: string;
  /** an HTML form built by the caller from escaped parts */
  html?: string;
  /** null: a system note, shown as 'System' (spec 2.10) */
  createdBy: string | null;
}

/** Plain text as HTML: escaped, one paragraph per blank-line-separated block. */
export function textToHtml(text: string): string {
  return text
    .split(/\n{2,}/)
    .map((block) => `<p>${escapeHtml(block).replace(/\n/g, "<br>")}</p>`)
    .join("");
}

/** Inserts a note in both forms the spec stores: HTML (`content`) and plain text (`content_text`). */
export async function addNote(db: Db, input: AddNoteInput): Promise<{ id: string }> {
  const [note] = await db`
    insert into public.notes (workspace_id, contact_id, task_id, type, content, content_text, created_by)
    values (${input.workspaceId}, ${input.contactId ?? null}, ${input.taskId ?? null}, ${input.type ?? "contact"},
            ${input.html ?? textToHtml(input.text)}, ${input.text}, ${input.createdBy})
    returning id`;
  return { id: note.id };
}
