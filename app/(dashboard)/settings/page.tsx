import type { Metadata } from "next";
import Link from "next/link";
import { ProfileForm, WorkspaceLanguageForm, WorkspaceNameForm } from "@/components/settings-forms";
import { renameWorkspaceAction, setWorkspaceLanguageAction, updateProfileAction } from "./actions";
import { requireMember } from "@/lib/auth/context";
import { withUser } from "@/lib/db/doors";
import { timeZones } from "@/lib/time/zones";
import { getProfile } from "@/lib/profiles/get-profile";
import { isAdmin } from "@/lib/workspaces/member-permissions";
import { getWorkspaceDefaultLocale, LANGUAGE_OPTIONS } from "@/lib/workspaces/default-locale";
import { SETTINGS_SECTIONS } from "./sections";

export const metadata: Metadata = { title: "Settings" };

export default async function SettingsPage() {
  const ctx = await requireMember();
  const [profile, locale] = await withUser(ctx.claims, (db) =>
    Promise.all([getProfile(db), getWorkspaceDefaultLocale(db, ctx.workspace.workspaceId)]),
  );
  const { workspaceName, role } = ctx.workspace;
  const language = LANGUAGE_OPTIONS.find((option) => option.value === locale)?.label ?? locale;
  return (
    <>
      <h1>Settings</h1>
      <div className="stack">
        <section className="card" aria-labelledby="workspace-heading">
          <h2 id="workspace-heading">Workspace</h2>
          {isAdmin(role) ? (
            <WorkspaceNameForm action={renameWorkspaceAction} name={workspaceName} />
          ) : (
            <p>
              <strong>{workspaceName}</strong>
              <br />
              <span className="hint">Only owners and admins can change the workspace name.</span>
            </p>
          )}
          {isAdmin(role) ? (
            <WorkspaceLanguageForm
              action={setWorkspaceLanguageAction}
              locale={locale}
              options={LANGUAGE_OPTIONS}
            />
          ) : (
            <p>
              Default language for recipients: <strong>{language}</strong>
            </p>
          )}
        </section>

        <section className="card" aria-labelledby="profile-heading">
          <h2 id="profile-heading">Your profile</h2>
          {profile ? (
            <ProfileForm action={updateProfileAction} profile={profile} timeZones={timeZones()} />
          ) : (
            <p className="alert error">Your profile could not be found. Sign out and in again.</p>
          )}
        </section>

        <section className="card" aria-labelledby="members-heading">
          <h2 id="members-heading">Members</h2>
          <p>
            <Link href="/settings/members">{isAdmin(role) ? "Manage members" : "See members"}</Link>: who is
            in this workspace and with which role.
          </p>
        </section>

        <section className="card" aria-labelledby="more-heading">
          <h2 id="more-heading">More settings</h2>
          <ul>
            {SETTINGS_SECTIONS.filter((section) => !section.ownersOnly || role === "owner").map((section) => (
              <li key={section.title}>
                {section.href ? (
                  <Link href={section.href}>{section.title}</Link>
                ) : (
                  <span>{section.title}</span>
                )}
                {" — "}
                <span className="hint">
                  {section.description}
                  {section.href ? "" : " (coming soon)"}
                </span>
              </li>
            ))}
          </ul>
        </section>
      </div>
    </>
  );
}
