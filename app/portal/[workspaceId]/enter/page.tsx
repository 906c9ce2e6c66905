import type { Metadata } from "next";
import { asFormAction } from "@/lib/http/form-state";
import { PortalFrame } from "@/components/portal/portal-frame";
import { withService } from "@/lib/db/doors";
import { PORTAL_LINK_MINUTES, portalPath } from "@/lib/portal/portal-links";
import { one, portalPage } from "@/lib/portal/flows/portal-page";
import { portalLinkOpen } from "@/lib/portal/portal-session";
import { enterAction } from "../actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Portal", robots: { index: false }, referrer: "no-referrer" };

/**
 * `{base_url}/portal/{workspace_id}/enter?token=…` (DESIGN.md section 9), the emailed link. Opening it
 * spends nothing (a mail scanner's GET must not use up the person's link): the page asks to
 * continue, and the Continue button spends it (enterAction). An expired, used or foreign link gets
 * a clear page offering a new one, nothing else.
 */
export default async function PortalEnterPage({
  params,
  searchParams,
}: {
  params: Promise<{ workspaceId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { workspaceId } = await params;
  const q = await searchParams;
  const lang = one(q.lang);
  const token = one(q.token);
  const { workspaceName, t } = await portalPage(workspaceId, lang);
  const open = !one(q.invalid) && (await withService((db) => portalLinkOpen(db, { workspaceId, token })));
  if (!open)
    return (
      <PortalFrame t={t} title={t.t("portal.invalidLink.title")} path={portalPath(workspaceId, "/enter")}>
        <p>{t.t("portal.invalidLink.body", { minutes: PORTAL_LINK_MINUTES })}</p>
        <p>
          <a className="button" href={portalPath(workspaceId, "", { lang: t.locale })}>
            {t.t("portal.invalidLink.action")}
          </a>
        </p>
      </PortalFrame>
    );
  return (
    <PortalFrame
      t={t}
      title={t.t("portal.enter.title", { workspace: workspaceName })}
      path={portalPath(workspaceId, "/enter", { token })}
    >
      <p>{t.t("portal.enter.intro")}</p>
      <form action={asFormAction(enterAction)}>
        <input type="hidden" name="workspaceId" value={workspaceId} />
        <input type="hidden" name="lang" value={t.locale} />
        <input type="hidden" name="token" value={token} />
        <button type="submit">{t.t("portal.enter.submit")}</button>
      </form>
    </PortalFrame>
  );
}
