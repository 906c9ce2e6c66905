import type { Metadata } from "next";
import Link from "next/link";
import { ConfirmAction } from "@/components/confirm-action";
import { InvitationRowActions } from "@/components/members/invitation-row-actions";
import { InviteMemberForm } from "@/components/members/invite-member-form";
import { RoleForm } from "@/components/members/role-form";
import { ACTIONS_COLUMN, DataTable } from "@/components/ui/data-table";
import { requireMember } from "@/lib/auth/context";
import { withUser } from "@/lib/db/doors";
import { formatDate, formatDateTime, isoInstant } from "@/lib/time/format";
import { getProfile } from "@/lib/profiles/get-profile";
import { listInvitations } from "@/lib/workspaces/list-invitations";
import { listMembers, type Member } from "@/lib/workspaces/list-members";
import type { Role } from "@/lib/workspaces/list-memberships";
import { isAdmin } from "@/lib/workspaces/member-permissions";
import { leaveWorkspaceAction } from "../../workspace-actions";
import {
  changeRoleAction,
  inviteMemberAction,
  removeMemberAction,
  resendInvitationAction,
  revokeInvitationAction,
} from "./actions";

export const metadata: Metadata = { title: "Members" };

const ALL_ROLES: Role[] = ["owner", "admin", "member"];

const nameOf = (m: Member) => [m.firstName, m.lastName].filter(Boolean).join(" ") || m.email || "Unnamed";

export default async function MembersPage() {
  const ctx = await requireMember();
  const { workspaceId, workspaceName, role: viewerRole } = ctx.workspace;
  const [members, invitations, profile] = await withUser(ctx.claims, async (db) => [
    await listMembers(db, { workspaceId }),
    await listInvitations(db, { workspaceId }),
    await getProfile(db),
  ]);
  if ("error" in members) throw members.error;
  if ("error" in invitations) throw invitations.error;
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
            Invite a member
          </h2>
          <p className="hint">
            They join when they accept the emailed invitation, signed in with that address.
          </p>
          <InviteMemberForm roles={grantable} inviteAction={inviteMemberAction} />
        </section>
      ) : (
        <p className="alert info" data-testid="members-read-only">
          Only owners and admins can invite, change or remove members.
        </p>
      )}

      <DataTable
        rows={members.data}
        columns={["Name", "Email", "Role", "Joined", ACTIONS_COLUMN]}
        caption={`Members of ${workspaceName}`}
        style={{ marginTop: "1rem" }}
      >
        {(m) => {
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
                  <RoleForm
                    userId={m.userId}
                    role={m.role}
                    roles={grantable}
                    memberLabel={label}
                    changeRoleAction={changeRoleAction}
                  />
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
                    action={leaveWorkspaceAction}
                    label="Leave workspace"
                    className="secondary"
                    title={`Leave ${workspaceName}?`}
                    body="You will lose access to this workspace until an owner or admin invites you again."
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
        }}
      </DataTable>

      {manage && invitations.data.length > 0 && (
        <section aria-labelledby="invitations-heading" style={{ marginTop: "1.5rem" }}>
          <h2 id="invitations-heading">Open invitations</h2>
          <DataTable rows={invitations.data} columns={["Email", "Role", "Sent", "Expires", ACTIONS_COLUMN]}>
            {(inv) => (
              <tr key={inv.id} data-testid={`invitation-${inv.email}`}>
                <td>{inv.email}</td>
                <td>
                  <span className="badge">{inv.role}</span>
                </td>
                <td>{formatDate(inv.sentAt, zone)}</td>
                <td>
                  {inv.expired ? <span className="badge">expired</span> : formatDate(inv.expiresAt, zone)}
                </td>
                <td>
                  {(inv.role !== "owner" || viewerRole === "owner") && (
                    <InvitationRowActions
                      invitationId={inv.id}
                      email={inv.email}
                      resendAction={resendInvitationAction}
                      revokeAction={revokeInvitationAction}
                    />
                  )}
                </td>
              </tr>
            )}
          </DataTable>
        </section>
      )}
    </>
  );
}
