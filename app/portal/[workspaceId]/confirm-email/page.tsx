import type { Metadata } from "next";
import { asFormAction } from "@/lib/http/form-state";
import { PortalFrame } from "@/components/portal/portal-frame";
import { portalPath } from "@/lib/portal/portal-links";
import { one, portalPage } from "@/lib/portal/flows/portal-page";
import { confirmEmailAction } from "../actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Portal", robots: { index: false }, referrer: "no-referrer" };

/**
 * The link sent to a new address the contact gave in the portal: as the sign-in link, opening it
 * spends nothing; Confirm does (confirmEmailAction).
 */
export default async function PortalConfirmEmailPage({
  params,
  searchParams,
}: {
  params: Promise<{ workspaceId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { workspaceId } = await params;
  const q = await searchParams;
  const token = one(q.token);
  const { workspaceName, t } = await portalPage(workspaceId, one(q.lang));
  const path = portalPath(workspaceId, "/confirm-email", { token });
  if (one(q.invalid) || !token)
    return (
      <PortalFrame t={t} title={t.t("portal.confirmEmail.title")} path={path}>
        <p role="alert">{t.t("portal.confirmEmail.invalid")}</p>
        <p>
          <a href={portalPath(workspaceId, "/me", { lang: t.locale })}>
            {t.t("portal.confirmEmail.toPortal")}
          </a>
        </p>
      </PortalFrame>
    );
  return (
    <PortalFrame t={t} title={t.t("portal.confirmEmail.title")} path={path}>
      <p>{t.t("portal.confirmEmail.intro", { workspace: workspaceName })}</p>
      <form action={asFormAction(confirmEmailAction)}>
        <input type="hidden" name="workspaceId" value={workspaceId} />
        <input type="hidden" name="lang" value={t.locale} />
        <input type="hidden" name="token" value={token} />
        <button type="submit">{t.t("portal.confirmEmail.submit")}</button>
      </form>
    </PortalFrame>
  );
}
