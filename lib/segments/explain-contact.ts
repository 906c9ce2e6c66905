import type { Db } from "@/lib/db/doors";
import { isUuid } from "@/lib/ids/uuid";
import { refused, type Result } from "@/lib/errors/app-error";
import { CONTACT_NOT_FOUND } from "@/lib/contacts/types";
import { conditionSql, segmentFields } from "./compile";
import { leaves, type Condition, type Node, type SegmentFilter } from "./filter";

/** A node of the filter with its answer for one contact (after its `not`). */
export type Explained =
  | { kind: "group"; op: "and" | "or"; not: boolean; matches: boolean; conditions: Explained[] }
  | { kind: "condition"; condition: Condition; matches: boolean };

/**
 * Why one contact is in or out of a filter: every condition's answer, read in one query (each
 * condition is the same SQL the count runs), and each group's answer from its children.
 */
export async function explainContact(
  db: Db,
  input: { workspaceId: string; contactId: string; filter: SegmentFilter },
): Promise<Result<Explained>> {
  if (!isUuid(input.contactId)) return refused("not_found", CONTACT_NOT_FOUND);
  const conditions = leaves(input.filter.root);
  const fields = await segmentFields(db, input.workspaceId, input.filter);
  const answers = conditions.map((c) => conditionSql(db, input.workspaceId, c, fields));
  const list = answers.length ? answers.reduce((acc, a) => db`${acc}, ${a}`) : db``;
  const [row] = await db<{ answers: boolean[] }[]>`
    select array[${list}]::boolean[] as answers from public.contacts c
    where c.id = ${input.contactId} and c.workspace_id = ${input.workspaceId}`;
  if (!row) return refused("not_found", CONTACT_NOT_FOUND);
  let next = 0;
  const build = (node: Node): Explained => {
    if (node.kind !== "group") {
      const raw = row.answers[next++] === true;
      return { kind: "condition", condition: node, matches: node.not ? !raw : raw };
    }
    const children = node.conditions.map(build);
    const raw = node.op === "and" ? children.every((c) => c.matches) : children.some((c) => c.matches);
    return {
      kind: "group",
      op: node.op,
      not: node.not,
      matches: node.not ? !raw : raw,
      conditions: children,
    };
  };
  return { data: build(input.filter.root) };
}

/** The contact the segment page asks about: an id, or an email address of the workspace. */
export async function findContactForExplain(
  db: Db,
  input: { workspaceId: string; contact: string },
): Promise<{ id: string; email: string } | null> {
  const value = input.contact.trim().slice(0, 320);
  if (!value) return null;
  const lower = value.toLowerCase();
  const [row] = isUuid(value)
    ? await db<{ id: string; email: string }[]>`
        select id, email from public.contacts where id = ${value} and workspace_id = ${input.workspaceId}`
    : await db<{ id: string; email: string }[]>`
        select id, email from public.contacts
        where workspace_id = ${input.workspaceId} and email in (${value}, ${lower})
        order by (email = ${value}) desc limit 1`;
  return row ?? null;
}
