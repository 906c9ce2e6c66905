import type { Metadata } from "next";
import { asFormAction } from "@/lib/http/form-state";
import { redirect } from "next/navigation";
import { PortalFrame } from "@/components/portal/portal-frame";
import {
  DataSection,
  DetailsSection,
  MembershipsSection,
  PageFields,
  PurchasesSection,
  RegistrationsSection,
  TopicsSection,
} from "@/components/portal/portal-sections";
import { withService } from "@/lib/db/doors";
import type { MessageKey } from "@/lib/i18n/translator";
import { portalDetails } from "@/lib/portal/correct-details";
import { currentPortalSession } from "@/lib/portal/flows/portal-flows";
import { portalPath } from "@/lib/portal/portal-links";
import { one, portalPage } from "@/lib/portal/flows/portal-page";
import { portalMemberships } from "@/lib/portal/memberships";
import { portalTopics } from "@/lib/portal/portal-topics";
import { portalPurchases } from "@/lib/portal/purchases";
import { portalRegistrations } from "@/lib/portal/registrations";
import {
  cancelRsvpAction,
  correctDetailsAction,
  openBillingAction,
  requestErasureAction,
  saveTopicsAction,
  signOutAction,
  unsubscribeAction,
} from "../actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Portal", robots: { index: false } };

/** The notices an act may come back with (portalAct's redirect), each a message of the catalogue. */
const NOTICES = new Set([
  "details",
  "unchanged",
  "emailSent",
  "emailChanged",
  "topics",
  "topicsRefused",
  "unsubscribed",
  "rsvpCancelled",
  "notFound",
  "erasure",
  "invalid",
  "billingUnavailable",
]);
const FAILURES = new Set(["topicsRefused", "notFound", "invalid", "billingUnavailable"]);

/**
 * The signed-in contact's page (DESIGN.md section 9; docs/decisions.md, "Portal sessions"): their
 * details, email topics, registrations, purchases and data, each read for the session's contact and
 * workspace only. Without a session (none, expired, revoked, another workspace's) it is the sign-in page.
 */
export default async function PortalHomePage({
  params,
  searchParams,
}: {
  params: Promise<{ workspaceId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { workspaceId } = await params;
  const q = await searchParams;
  const lang = one(q.lang);
  const session = await currentPortalSession(workspaceId);
  const { workspaceName, t } = await portalPage(workspaceId, lang, session);
  if (!session) redirect(portalPath(workspaceId, "", { expired: "1", lang }));
  const [details, centre, registrations, purchases, memberships] = await withService((db) =>
    Promise.all([
      portalDetails(db, session),
      portalTopics(db, session),
      portalRegistrations(db, session),
      portalPurchases(db, session),
      portalMemberships(db, session),
    ]),
  );
  const done = one(q.done);
  const notice = done && NOTICES.has(done) ? done : null;
  return (
    <PortalFrame
      t={t}
      title={t.t("portal.title", { workspace: workspaceName })}
      path={portalPath(workspaceId, "/me")}
    >
      <p>{t.t("portal.me.signedInAs", { email: session.email })}</p>
      {notice && (
        <div
          id="notice"
          role={FAILURES.has(notice) ? "alert" : "status"}
          className={`alert ${FAILURES.has(notice) ? "error" : "success"}`}
        >
          {t.t(`portal.notice.${notice}` as MessageKey, { workspace: workspaceName })}
        </div>
      )}
      <nav aria-label={t.t("portal.me.sections")} className="row">
        <a href="#details-heading">{t.t("portal.details.heading")}</a>
        <a href="#topics-heading">{t.t("portal.topics.heading")}</a>
        <a href="#registrations-heading">{t.t("portal.registrations.heading")}</a>
        <a href="#purchases-heading">{t.t("portal.purchases.heading")}</a>
        {memberships.length > 0 && <a href="#memberships-heading">{t.t("portal.memberships.heading")}</a>}
        <a href="#data-heading">{t.t("portal.data.heading")}</a>
      </nav>
      <DetailsSection
        workspaceId={workspaceId}
        t={t}
        details={details}
        save={asFormAction(correctDetailsAction)}
      />
      {centre && (
        <TopicsSection
          workspaceId={workspaceId}
          t={t}
          centre={centre}
          save={asFormAction(saveTopicsAction)}
          unsubscribe={asFormAction(unsubscribeAction)}
          subscribeHref={`/subscribe/${session.contactId}?sig=${centre.subscribeSignature}`}
        />
      )}
      <RegistrationsSection
        workspaceId={workspaceId}
        t={t}
        registrations={registrations}
        cancel={asFormAction(cancelRsvpAction)}
      />
      <PurchasesSection workspaceId={workspaceId} t={t} purchases={purchases} />
      {memberships.length > 0 && (
        <MembershipsSection
          workspaceId={workspaceId}
          workspaceName={workspaceName}
          t={t}
          memberships={memberships}
          manage={asFormAction(openBillingAction)}
        />
      )}
      <DataSection
        workspaceId={workspaceId}
        workspaceName={workspaceName}
        t={t}
        requestErasure={asFormAction(requestErasureAction)}
      />
      <form action={asFormAction(signOutAction)}>
        <PageFields workspaceId={workspaceId} t={t} />
        <button type="submit" className="secondary">
          {t.t("portal.signOut")}
        </button>
      </form>
    </PortalFrame>
  );
}
