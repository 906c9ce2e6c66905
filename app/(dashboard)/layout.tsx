import { requireMember } from "@/lib/auth/context";
import { signOutAction } from "@/app/(auth)/actions";
import { NavLinks } from "@/components/nav-links";
import { WorkspaceSwitcher } from "@/components/workspace-switcher";

export default async function DashboardLayout({ children }: { children: React.ReactNode }) {
  const ctx = await requireMember();
  return (
    <div className="shell">
      <aside className="sidebar">
        <WorkspaceSwitcher current={ctx.workspace.workspaceId} memberships={ctx.memberships} />
        <nav aria-label="Main">
          <NavLinks />
        </nav>
        <div style={{ marginTop: "auto" }} className="stack">
          <span className="hint">{ctx.claims.email}</span>
          <form action={signOutAction}>
            <button type="submit" className="secondary">
              Sign out
            </button>
          </form>
        </div>
      </aside>
      <main className="main" id="main">
        {children}
      </main>
    </div>
  );
}
