import { asService, type Db } from "@/lib/db/doors";
import { textToHtml } from "./text-to-html";
import { refused, type Result } from "@/lib/errors/app-error";

export { textToHtml };

export type NoteType = "contact" | "task";

export interface Note {
  id: string;
  workspace_id: string;
  contact_id: string | null;
  task_id: string | null;
  type: NoteType;
  content: string;
  content_text: string;
  created_by: string | null;
  created_at: Date;
}

export interface AddNoteInput {
  workspaceId: string;
  /** the contact whose timeline shows the note; null for a note on a task alone */
  contactId: string | null;
  /** default 'contact' */
  type?: NoteType;
  /** the plain-text form (notes.content_text) */
  text: string;
  /**
   * The HTML form (notes.content), for system notes that build their own markup; every
   * interpolated value must already be escaped. Absent: the text escaped into <p> paragraphs.
   */
  html?: string;
  /** the member who wrote it; null for a system note (shown as 'System') */
  createdBy: string | null;
  taskId?: string | null;
}

export const NOTE_MAX_LENGTH = 10_000;

/**
 * Spec 2.10: a note on a contact's timeline (type 'contact') or a task (type 'task'),
 * stored both as HTML and as plain text. Trusts workspaceId and contactId as given: the
 * caller has resolved them (RLS still limits a member's own notes to their workspaces; a
 * system note is written through the service door, so its caller must have checked them).
 */
export async function addNote(db: Db, input: AddNoteInput): Promise<Result<Note>> {
  const text = input.text.replace(/\r\n?/g, "\n").trim();
  if (!text) return refused("invalid", "Write something in the note.");
  if (text.length > NOTE_MAX_LENGTH)
    return refused("invalid", `A note can be at most ${NOTE_MAX_LENGTH.toLocaleString("en-US")} characters.`);
  const html = input.html ?? textToHtml(text);
  const insert = () => db<Note[]>`
    insert into public.notes (workspace_id, contact_id, task_id, type, content, content_text, created_by)
    values (${input.workspaceId}, ${input.contactId}, ${input.taskId ?? null}, ${input.type ?? "contact"},
            ${html}, ${text}, ${input.createdBy})
    returning id, workspace_id, contact_id, task_id, type, content, content_text, created_by, created_at`;
  // a system note is the system's to write, whoever's transaction it is in: as a member, the
  // database names the member (migration 20261128000800_authorship)
  const [note] = input.createdBy === null ? await asService(db, insert) : await insert();
  return { data: note };
}
