import type { Metadata } from "next";
import Link from "next/link";
import { ConfirmAction } from "@/components/confirm-action";
import { TagNameForm } from "@/components/contacts/tag-forms";
import { requireMember } from "@/lib/auth/context";
import { withUser } from "@/lib/db/doors";
import { listTags } from "@/lib/tags/list-tags";
import { createTagAction, deleteTagAction, renameTagAction } from "./actions";

export const metadata: Metadata = { title: "Tags" };

/**
 * One rename and one delete form per tag, the tag's id in a hidden field: the same two server
 * actions for every row (a bound action per row is encrypted per row, which cost a 200-tag page
 * 60 ms of server time on 2 ms of SQL).
 */
export default async function TagsPage() {
  const ctx = await requireMember();
  const tags = await withUser(ctx.claims, (db) => listTags(db, { workspaceId: ctx.workspace.workspaceId }));
  return (
    <>
      <p>
        <Link href="/contacts">← All contacts</Link>
      </p>
      <h1>Tags</h1>
      <div className="card">
        <TagNameForm action={createTagAction} label="New tag" submitLabel="Create tag" />
      </div>
      <h2>{tags.length === 1 ? "1 tag" : `${tags.length} tags`}</h2>
      {tags.length === 0 ? (
        <div className="card empty">No tags yet.</div>
      ) : (
        <ul className="stack" style={{ listStyle: "none", padding: 0 }}>
          {tags.map((t) => (
            <li key={t.id} className="card row" style={{ justifyContent: "space-between" }}>
              <TagNameForm
                action={renameTagAction}
                fields={{ tagId: t.id }}
                label={`Name of tag ${t.name}`}
                submitLabel="Rename"
                initial={t.name}
              />
              <div className="row">
                <Link href={`/contacts?tagIds=${t.id}`}>Contacts</Link>
                <ConfirmAction
                  action={deleteTagAction}
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
      )}
    </>
  );
}
