import { asFormAction, type FormAction, type PostAction } from "@/lib/http/form-state";
import type { Membership } from "@/lib/workspaces/list-memberships";
import { CreateWorkspaceForm } from "./create-workspace-form";

/**
 * The current workspace and the member's role in it; with several memberships, a select
 * to switch (the choice is kept in a cookie); and a way to create another workspace.
 */
export function WorkspaceSwitcher({
  current,
  memberships,
  switchAction,
  createAction,
}: {
  current: string;
  memberships: Membership[];
  switchAction: PostAction;
  createAction: FormAction;
}) {
  const active = memberships.find((m) => m.workspaceId === current)!;
  return (
    <div className="stack">
      <div>
        <strong data-testid="workspace-name">{active.workspaceName}</strong>
        <div className="hint">
          Your role: <span data-testid="workspace-role">{active.role}</span>
        </div>
      </div>
      {memberships.length > 1 && (
        <form action={asFormAction(switchAction)} className="stack">
          <label>
            Workspace
            <select key={current} name="workspaceId" defaultValue={current} data-testid="workspace-select">
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
      )}
      <details>
        <summary>New workspace</summary>
        <CreateWorkspaceForm createAction={createAction} />
      </details>
    </div>
  );
}
