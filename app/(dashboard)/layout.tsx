import { ADMIN_ROLES, requireMember } from "@/lib/auth/context";
import { withReadUser } from "@/lib/db/doors";
import { countUnreadNotifications } from "@/lib/notifications/list-notifications";
import { NotificationBell } from "@/components/notifications/notification-bell";
import { signOutAction } from "@/app/(auth)/actions";
import { NavLinks } from "@/components/nav-links";
import { MenuDisclosure } from "@/components/ui/menu-disclosure";
import { SignOutForm } from "@/components/sign-out-form";
import { WorkspaceSwitcher } from "@/components/workspace-switcher";
import { createWorkspaceAction, switchWorkspaceAction } from "./workspace-actions";

export default async function DashboardLayout({ children }: { children: React.ReactNode }) {
  const ctx = await requireMember();
  // the bell's count tolerates a little lag: the read replica when there is one (lib/db/replica.ts)
  const unread = await withReadUser(ctx.claims, (db) =>
    countUnreadNotifications(db, { workspaceId: ctx.workspace.workspaceId, userId: ctx.userId }),
  );
  return (
    <div className="shell">
      <aside className="sidebar">
        {/* on a phone the menu is a disclosure (docs/decisions.md, "Phone layout") */}
        <MenuDisclosure bar={<NotificationBell unread={unread} />}>
          <WorkspaceSwitcher
            current={ctx.workspace.workspaceId}
            memberships={ctx.memberships}
            switchAction={switchWorkspaceAction}
            createAction={createWorkspaceAction}
          />
          <nav aria-label="Main">
            <NavLinks admin={ADMIN_ROLES.includes(ctx.workspace.role)} />
          </nav>
          <div style={{ marginTop: "auto" }} className="stack">
            <span className="hint">{ctx.claims.email}</span>
            <SignOutForm action={signOutAction} />
          </div>
        </MenuDisclosure>
      </aside>
      <main className="main" id="main">
        {children}
      </main>
    </div>
  );
}
