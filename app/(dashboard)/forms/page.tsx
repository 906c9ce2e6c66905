import type { Metadata } from "next";
import Link from "next/link";
import { ADMIN_ROLES, requireMember } from "@/lib/auth/context";
import { withReadUser } from "@/lib/db/doors";
import { formatDateTime, isoInstant } from "@/lib/time/format";
import { listForms } from "@/lib/forms/list-forms";
import { DataTable } from "@/components/ui/data-table";
import { PageHeader } from "@/components/ui/section";

export const metadata: Metadata = { title: "Forms" };

export default async function FormsPage() {
  const ctx = await requireMember();
  const zone = ctx.timeZone;
  const forms = await withReadUser(ctx.claims, (db) => listForms(db, ctx.workspace.workspaceId));
  const canEdit = ADMIN_ROLES.includes(ctx.workspace.role);
  return (
    <>
      <PageHeader title="Forms" create={canEdit && { href: "/forms/new", label: "New form" }} />
      <DataTable
        rows={forms}
        columns={["Name", "Websites", "Verification", "Key", "Submissions", "Last submission"]}
        caption="Forms of this workspace"
        empty={
          <>
            <p>No forms yet.</p>{" "}
            {canEdit ? (
              <p>Create a form to capture leads from your website or your own server.</p>
            ) : (
              <p>Owners and admins of this workspace can create forms.</p>
            )}
          </>
        }
      >
        {(f) => (
          <tr key={f.id}>
            <td>
              <Link href={`/forms/${f.id}`}>{f.name}</Link>
            </td>
            <td>{f.allowed_domains.length === 0 ? "Any (open mode)" : f.allowed_domains.join(", ")}</td>
            <td>{f.require_verification ? "Required" : "Off"}</td>
            <td>{f.has_key ? "Set" : "None"}</td>
            <td>
              <Link href={`/forms/${f.id}/submissions`}>{f.submissions}</Link>
              {f.pending > 0 && <span className="hint"> ({f.pending} awaiting verification)</span>}
            </td>
            <td>
              {f.last_submission_at ? (
                <time dateTime={isoInstant(f.last_submission_at)}>
                  {formatDateTime(f.last_submission_at, zone)}
                </time>
              ) : (
                "—"
              )}
            </td>
          </tr>
        )}
      </DataTable>
    </>
  );
}
