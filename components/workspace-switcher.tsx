import { switchWorkspaceAction } from "@/app/(dashboard)/workspace-actions";
import type { Membership } from "@/lib/workspaces/list-memberships";

/** Shows the current workspace; with several memberships, a select to switch. */
export function WorkspaceSwitcher({ current, memberships }: { current: string; memberships: Membership[] }) {
  const active = memberships.find((m) => m.workspaceId === current)!;
  if (memberships.length === 1) {
    return (
      <div>
        <strong data-testid="workspace-name">{active.workspaceName}</strong>
        <div className="hint">{active.role}</div>
      </div>
    );
  }
  return (
    <form action={switchWorkspaceAction} className="stack">
      <label>
        Workspace
        <select name="workspaceId" defaultValue={current} data-testid="workspace-select">
          {memberships.map((m) => (
            <option key={m.workspaceId} value={m.workspaceId}>
              {m.workspaceName} ({m.role})
            </option>
          ))}
        </select>
      </label>
      <button type="submit" className="secondary">
        Switch
      </button>
    </form>
  );
}
