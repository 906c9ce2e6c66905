import type { Metadata } from "next";
import { asFormAction } from "@/lib/http/form-state";
import { PortalFrame } from "@/components/portal/portal-frame";
import { currentPortalSession } from "@/lib/portal/flows/portal-flows";
import { PORTAL_LINK_MINUTES, portalPath } from "@/lib/portal/portal-links";
import { one, portalPage } from "@/lib/portal/flows/portal-page";
import { requestLinkAction } from "./actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Portal", robots: { index: false } };

type Query = Record<string, string | string[] | undefined>;

/**
 * `{base_url}/portal/{workspace_id}` (DESIGN.md section 9): the sign-in page. It asks for an address
 * and answers the same whatever it is (requestPortalLinkFlow); a session of this workspace already
 * open is offered its page.
 */
export default async function PortalSignInPage({
  params,
  searchParams,
}: {
  params: Promise<{ workspaceId: string }>;
  searchParams: Promise<Query>;
}) {
  const { workspaceId } = await params;
  const q = await searchParams;
  const lang = one(q.lang);
  const { workspaceName, t } = await portalPage(workspaceId, lang);
  const session = await currentPortalSession(workspaceId);
  const values = { workspace: workspaceName, minutes: PORTAL_LINK_MINUTES };
  const notice = one(q.sent)
    ? { role: "status", className: "alert success", text: t.t("portal.signIn.sent", values) }
    : one(q.signedOut)
      ? { role: "status", className: "alert success", text: t.t("portal.signIn.signedOut") }
      : one(q.expired)
        ? { role: "status", className: "alert info", text: t.t("portal.signIn.expired") }
        : one(q.error) === "tooMany"
          ? { role: "alert", className: "alert error", text: t.t("portal.signIn.tooMany") }
          : one(q.error)
            ? { role: "alert", className: "alert error", text: t.t("portal.signIn.invalidEmail") }
            : null;
  return (
    <PortalFrame t={t} title={t.t("portal.title", values)} path={portalPath(workspaceId)}>
      {notice && (
        <div role={notice.role} className={notice.className} id="portal-notice">
          {notice.text}
        </div>
      )}
      {session && (
        <p>
          <a href={portalPath(workspaceId, "/me", { lang })}>{t.t("portal.signIn.continue")}</a>
        </p>
      )}
      <p>{t.t("portal.signIn.intro", values)}</p>
      <form action={asFormAction(requestLinkAction)} className="stack">
        <input type="hidden" name="workspaceId" value={workspaceId} />
        <input type="hidden" name="lang" value={t.locale} />
        <label>
          {t.t("portal.signIn.email")}
          <input name="email" type="email" required autoComplete="email" maxLength={254} />
        </label>
        <button type="submit">{t.t("portal.signIn.submit")}</button>
      </form>
    </PortalFrame>
  );
}
