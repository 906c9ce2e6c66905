"use client";

import Link from "next/link";
import { ConfirmAction } from "@/components/confirm-action";
import type { FormState } from "@/lib/http/form-state";
import { TagNameForm } from "./tag-forms";

type Action = (prev: FormState, form: FormData) => Promise<FormState>;

/**
 * The tags page's rows: a rename form, the tag's contacts and a confirmed delete per tag, the
 * tag's id in a hidden field so every row shares the same two server actions. One client
 * component for the list, so the page sends the tags once as data rather than two client
 * components' props per row (docs/performance.md: a 200-tag page's server time was twenty times its SQL).
 */
export function TagList({
  tags,
  renameAction,
  deleteAction,
}: {
  tags: { id: string; name: string }[];
  renameAction: Action;
  deleteAction: Action;
}) {
  return (
    <ul className="stack" style={{ listStyle: "none", padding: 0 }}>
      {tags.map((t) => (
        <li key={t.id} className="card row" style={{ justifyContent: "space-between" }}>
          <TagNameForm
            action={renameAction}
            fields={{ tagId: t.id }}
            label={`Name of tag ${t.name}`}
            submitLabel="Rename"
            initial={t.name}
          />
          <div className="row">
            <Link href={`/contacts?tagIds=${t.id}`}>Contacts</Link>
            <ConfirmAction
              action={deleteAction}
              fields={{ tagId: t.id }}
              label="Delete"
              title={`Delete the tag ${t.name}?`}
              body="The tag is removed from every contact that has it. The contacts stay."
              confirmLabel="Delete tag"
            />
          </div>
        </li>
      ))}
    </ul>
  );
}
