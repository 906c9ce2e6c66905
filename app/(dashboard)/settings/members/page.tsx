import type { Metadata } from "next";
import Link from "next/link";
import { ConfirmAction } from "@/components/confirm-action";
import { AddMemberForm } from "@/components/members/add-member-form";
import { RoleForm } from "@/components/members/role-form";
import { requireMember } from "@/lib/auth/context";
import { withUser } from "@/lib/db/doors";
import { formatDate, formatDateTime, isoInstant } from "@/lib/time/format";
import { getProfile } from "@/lib/profiles/get-profile";
import { listMembers, type Member } from "@/lib/workspaces/list-members";
import type { Role } from "@/lib/workspaces/list-memberships";
import { isAdmin } from "@/lib/workspaces/member-permissions";
import { removeMemberAction } from "./actions";

export const metadata: Metadata = { title: "Members" };

const ALL_ROLES: Role[] = ["owner", "admin", "member"];

const nameOf = (m: Member) => [m.firstName, m.lastName].filter(Boolean).join(" ") || m.email || "Unnamed";

export default async function MembersPage() {
  const ctx = await requireMember();
  const { workspaceId, workspaceName, role: viewerRole } = ctx.workspace;
  const [members, profile] = await withUser(ctx.claims, async (db) => [
    await listMembers(db, { workspaceId }),
    await getProfile(db),
  ]);
  if ("error" in members) throw new Error(members.error);
  const manage = isAdmin(viewerRole);
  // Which roles the viewer may give, and whom they may change or remove (the server checks again).
  const grantable = viewerRole === "owner" ? ALL_ROLES : manage ? ALL_ROLES.slice(1) : [];
  const mayManage = (m: Member) => manage && (m.role !== "owner" || viewerRole === "owner");
  const zone = profile?.timezone;

  return (
    <>
      <p className="hint">
        <Link href="/settings">Settings</Link> / Members
      </p>
      <h1>Members</h1>
      {manage ? (
        <section className="card" aria-labelledby="add-heading">
          <h2 id="add-heading" style={{ marginTop: 0 }}>
            Add a member
          </h2>
          <AddMemberForm roles={grantable} />
        </section>
      ) : (
        <p className="alert info" data-testid="members-read-only">
          Only owners and admins can add, change or remove members.
        </p>
      )}

      <table className="data" style={{ marginTop: "1rem" }}>
        <caption className="sr-only">Members of {workspaceName}</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Email</th>
            <th scope="col">Role</th>
            <th scope="col">Joined</th>
            <th scope="col">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {members.data.map((m) => {
            const self = m.userId === ctx.userId;
            const label = nameOf(m);
            return (
              <tr key={m.userId} data-testid={`member-${m.email}`}>
                <td>
                  {label}
                  {self && <span className="hint"> (you)</span>}
                </td>
                <td>{m.email}</td>
                <td>
                  {mayManage(m) ? (
                    <RoleForm userId={m.userId} role={m.role} roles={grantable} memberLabel={label} />
                  ) : (
                    <span className="badge">{m.role}</span>
                  )}
                </td>
                <td>
                  <time dateTime={isoInstant(m.joinedAt)} title={formatDateTime(m.joinedAt, zone)}>
                    {formatDate(m.joinedAt, zone)}
                  </time>
                </td>
                <td>
                  {self ? (
                    <ConfirmAction
                      action={removeMemberAction}
                      fields={{ userId: m.userId }}
                      label="Leave workspace"
                      className="secondary"
                      title={`Leave ${workspaceName}?`}
                      body="You will lose access to this workspace until an owner or admin adds you again."
                      confirmLabel="Leave workspace"
                    />
                  ) : (
                    mayManage(m) && (
                      <ConfirmAction
                        action={removeMemberAction}
                        fields={{ userId: m.userId }}
                        label="Remove"
                        accessibleName={`Remove ${label}`}
                        className="secondary"
                        title={`Remove ${label}?`}
                        body={`${label} will lose access to ${workspaceName}. Their account is kept.`}
                        confirmLabel="Remove member"
                      />
                    )
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </>
  );
}
