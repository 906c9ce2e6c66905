import type { Metadata } from "next";
import { ADMIN_ROLES, requireMember } from "@/lib/auth/context";
import { appUrl } from "@/lib/config";
import { withUser } from "@/lib/db/doors";
import { listApiKeys } from "@/lib/api-keys/list-api-keys";
import { formatDate, formatDateTime, todayIn } from "@/lib/time/format";
import { API_SCOPES } from "@/lib/api/v1/scopes";
import { SCOPE_LABELS } from "@/lib/api-keys/issue-api-key";
import { ConfirmAction } from "@/components/confirm-action";
import { IssueApiKeyForm } from "@/components/events/issue-api-key-form";
import { issueApiKeyAction, revokeApiKeyAction } from "./actions";
import { DataTable } from "@/components/ui/data-table";
import { QueryNotices } from "@/components/ui/query-notices";
import type { QueryPageProps } from "@/lib/http/page-param";

export const metadata: Metadata = { title: "API keys" };

export default async function ApiKeysPage({ searchParams }: QueryPageProps) {
  const q = await searchParams;
  const ctx = await requireMember();
  const isAdmin = ADMIN_ROLES.includes(ctx.workspace.role);
  const zone = ctx.timeZone;
  const keys = await withUser(ctx.claims, (db) =>
    listApiKeys(db, { workspaceId: ctx.workspace.workspaceId }),
  );
  return (
    <>
      <h1>API keys</h1>
      <p>
        Other systems use the REST API at <code>{appUrl()}/api/v1/</code> with a key sent as{" "}
        <code>Authorization: Bearer &lt;key&gt;</code>; each key can do what its scopes allow and nothing
        else. Your website reads your published, upcoming events from{" "}
        <code>{appUrl()}/api/v1/public/events</code> with a key holding <code>events:read</code> (also as{" "}
        <code>?key=&lt;key&gt;</code>). The <a href="/api-reference">API reference</a> describes every
        operation and field.
      </p>
      <QueryNotices
        query={q}
        errors="The key could not be revoked."
        notices={{ revoked: "The key was revoked." }}
      />
      {isAdmin && (
        <IssueApiKeyForm
          action={issueApiKeyAction}
          scopes={API_SCOPES.map((s) => [s, SCOPE_LABELS[s]])}
          today={todayIn(zone)}
        />
      )}
      <h2>Keys</h2>
      <DataTable
        rows={keys}
        columns={["Name", "Scopes", <>Created ({zone})</>, "Expires", "Last used", "Status", "Actions"]}
        empty="No keys yet."
      >
        {(k) => (
          <tr key={k.id}>
            <td>{k.name}</td>
            <td>
              {k.scopes.map((s) => (
                <code key={s} style={{ display: "block" }}>
                  {s}
                </code>
              ))}
            </td>
            <td>{formatDateTime(k.created_at, zone)}</td>
            <td>{k.expires_at ? formatDateTime(k.expires_at, zone) : "Never"}</td>
            <td>
              {k.last_used_at ? (
                <>
                  {formatDateTime(k.last_used_at, zone)}
                  {k.last_used_ip && <> from {k.last_used_ip}</>}
                </>
              ) : (
                "Never"
              )}
            </td>
            <td>
              {k.revoked_at ? (
                <span className="badge spam">Revoked {formatDate(k.revoked_at, zone)}</span>
              ) : k.expired ? (
                <span className="badge spam">Expired</span>
              ) : (
                <span className="badge subscribed">Active</span>
              )}
            </td>
            {isAdmin && (
              <td>
                {!k.revoked_at && (
                  <ConfirmAction
                    label={`Revoke ${k.name}`}
                    title={`Revoke “${k.name}”?`}
                    body="Requests with this key will be refused from now on. This cannot be undone."
                    confirmLabel="Revoke key"
                    action={revokeApiKeyAction}
                    fields={{ keyId: k.id }}
                  />
                )}
              </td>
            )}
          </tr>
        )}
      </DataTable>
    </>
  );
}
