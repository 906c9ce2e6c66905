import { PERSON_FIELDS, type ContactRow, type PersonField } from "@/lib/contacts/contact-row";
import type { MessageKey, Translator } from "@/lib/i18n/translator";
import type { PortalMembership } from "@/lib/portal/memberships";
import type { PortalPurchase } from "@/lib/portal/purchases";
import type { PortalRegistration } from "@/lib/portal/registrations";
import type { portalTopics } from "@/lib/portal/portal-topics";

type Action = (form: FormData) => Promise<void>;

/** The hidden fields every portal form carries: the page's workspace and language, nothing else. */
export function PageFields({ workspaceId, t }: { workspaceId: string; t: Translator }) {
  return (
    <>
      <input type="hidden" name="workspaceId" value={workspaceId} />
      <input type="hidden" name="lang" value={t.locale} />
    </>
  );
}

const AUTOCOMPLETE: Record<PersonField, string> = {
  first_name: "given-name",
  last_name: "family-name",
  phone: "tel",
  address_line1: "address-line1",
  address_line2: "address-line2",
  city: "address-level2",
  state: "address-level1",
  postal_code: "postal-code",
  country: "country-name",
};

export function DetailsSection({
  workspaceId,
  t,
  details,
  save,
}: {
  workspaceId: string;
  t: Translator;
  details: Pick<ContactRow, PersonField | "email">;
  save: Action;
}) {
  return (
    <section className="stack" aria-labelledby="details-heading">
      <h2 id="details-heading">{t.t("portal.details.heading")}</h2>
      <p className="hint" id="details-hint">
        {t.t("portal.details.hint")}
      </p>
      <form action={save} className="stack" aria-describedby="details-hint">
        <PageFields workspaceId={workspaceId} t={t} />
        <label>
          {t.t("portal.details.email")}
          <input
            name="email"
            type="email"
            required
            autoComplete="email"
            maxLength={254}
            defaultValue={details.email}
            aria-describedby="email-hint"
          />
        </label>
        <p className="hint" id="email-hint">
          {t.t("portal.details.emailHint")}
        </p>
        {PERSON_FIELDS.map((field) => (
          <label key={field}>
            {t.t(`portal.details.${field}` as MessageKey)}
            <input
              name={field}
              type={field === "phone" ? "tel" : "text"}
              autoComplete={AUTOCOMPLETE[field]}
              defaultValue={details[field] ?? ""}
            />
          </label>
        ))}
        <button type="submit">{t.t("portal.details.save")}</button>
      </form>
    </section>
  );
}

export function TopicsSection({
  workspaceId,
  t,
  centre,
  save,
  unsubscribe,
  subscribeHref,
}: {
  workspaceId: string;
  t: Translator;
  centre: NonNullable<Awaited<ReturnType<typeof portalTopics>>>;
  save: Action;
  unsubscribe: Action;
  subscribeHref: string;
}) {
  return (
    <section className="stack" aria-labelledby="topics-heading">
      <h2 id="topics-heading">{t.t("portal.topics.heading")}</h2>
      {centre.topics.length > 0 ? (
        <>
          <form action={save} className="stack">
            <PageFields workspaceId={workspaceId} t={t} />
            <fieldset className="stack">
              <legend>{t.t("portal.topics.legend")}</legend>
              {centre.topics.map((topic) => (
                <label key={topic.id} className="check">
                  <input type="checkbox" name="topics[]" value={topic.id} defaultChecked={topic.subscribed} />
                  <span>
                    <strong>{topic.name}</strong>
                    {topic.description && <span className="hint"> {topic.description}</span>}
                  </span>
                </label>
              ))}
              {centre.blocked && <p className="hint">{t.t("portal.notice.topicsRefused")}</p>}
            </fieldset>
            <button type="submit">{t.t("portal.topics.save")}</button>
          </form>
          <form action={save}>
            <PageFields workspaceId={workspaceId} t={t} />
            <input type="hidden" name="everything" value="1" />
            <button type="submit" className="secondary">
              {t.t("portal.topics.leaveAll")}
            </button>
          </form>
        </>
      ) : centre.subscribed ? (
        <form action={unsubscribe} className="stack">
          <PageFields workspaceId={workspaceId} t={t} />
          <p>{t.t("portal.topics.subscribed")}</p>
          <button type="submit" className="secondary">
            {t.t("portal.topics.unsubscribe")}
          </button>
        </form>
      ) : (
        <p>
          {t.t("portal.topics.notSubscribed")}{" "}
          {!centre.blocked && <a href={subscribeHref}>{t.t("portal.topics.subscribe")}</a>}
        </p>
      )}
    </section>
  );
}

export function RegistrationsSection({
  workspaceId,
  t,
  registrations,
  cancel,
}: {
  workspaceId: string;
  t: Translator;
  registrations: PortalRegistration[];
  cancel: Action;
}) {
  return (
    <section className="stack" aria-labelledby="registrations-heading">
      <h2 id="registrations-heading">{t.t("portal.registrations.heading")}</h2>
      {registrations.length === 0 ? (
        <p className="empty">{t.t("portal.registrations.none")}</p>
      ) : (
        <ul className="stack portal-list">
          {registrations.map((r) => (
            <li key={r.id} className="stack">
              <span>
                <strong>{r.eventName}</strong>
                <br />
                {r.startTime ? t.dateTime(r.startTime) : t.t("portal.registrations.noDate")}
                {r.location && <> · {r.location}</>}
                <br />
                <span className="badge">
                  {t.t(
                    r.status === "registered"
                      ? "portal.registrations.registered"
                      : "portal.registrations.cancelled",
                  )}
                </span>
              </span>
              {r.status === "registered" && (
                <a href={`/rsvp/${r.eventId}/calendar.ics`} download>
                  {t.t("portal.registrations.calendar", { event: r.eventName })}
                </a>
              )}
              {r.cancellable && (
                <form action={cancel}>
                  <PageFields workspaceId={workspaceId} t={t} />
                  <input type="hidden" name="registrationId" value={r.id} />
                  <button type="submit" className="secondary">
                    {t.t("portal.registrations.cancel", { event: r.eventName })}
                  </button>
                </form>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function PurchasesSection({
  workspaceId,
  t,
  purchases,
}: {
  workspaceId: string;
  t: Translator;
  purchases: PortalPurchase[];
}) {
  return (
    <section className="stack" aria-labelledby="purchases-heading">
      <h2 id="purchases-heading">{t.t("portal.purchases.heading")}</h2>
      {purchases.length === 0 ? (
        <p className="empty">{t.t("portal.purchases.none")}</p>
      ) : (
        <ul className="stack portal-list">
          {purchases.map((p) => {
            const item = p.product ?? t.t("portal.purchases.unnamed");
            return (
              <li key={p.id}>
                <strong>{item}</strong> · {t.money(p.amountCents, p.currency)} · {t.dateTime(p.date)}
                {p.refundedCents > 0 && (
                  <> · {t.t("portal.purchases.refunded", { amount: t.money(p.refundedCents, p.currency) })}</>
                )}
                <br />
                <a href={`/portal/${workspaceId}/receipts/${p.id}?lang=${t.locale}`} download>
                  {t.t("portal.purchases.receipt", { item })}
                </a>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

/**
 * The contact's memberships and regular gifts (shown when they have any), and the way to Stripe's
 * customer portal for the card, invoices and cancellation.
 */
export function MembershipsSection({
  workspaceId,
  workspaceName,
  t,
  memberships,
  manage,
}: {
  workspaceId: string;
  workspaceName: string;
  t: Translator;
  memberships: PortalMembership[];
  manage: Action;
}) {
  const day = (d: Date) => t.intl.formatDate(d, { dateStyle: "long", timeZone: t.timeZone });
  return (
    <section className="stack" aria-labelledby="memberships-heading">
      <h2 id="memberships-heading">{t.t("portal.memberships.heading")}</h2>
      <ul className="stack portal-list">
        {memberships.map((m) => (
          <li key={m.id}>
            <strong>{m.plan}</strong> · {t.t(`portal.memberships.${m.kind}`)} ·{" "}
            {t.t(`portal.memberships.${m.status}`)}
            <br />
            {t.t("portal.memberships.since", { date: day(m.memberSince) })}
            {m.expiresAt && m.status !== "lapsed" && m.status !== "cancelled" && (
              <>
                {" · "}
                {t.t(m.ending ? "portal.memberships.ends" : "portal.memberships.renews", {
                  date: day(m.expiresAt),
                })}
              </>
            )}
          </li>
        ))}
      </ul>
      <form action={manage} className="stack">
        <PageFields workspaceId={workspaceId} t={t} />
        <p className="hint">{t.t("portal.memberships.manageHint", { workspace: workspaceName })}</p>
        <button type="submit" className="secondary">
          {t.t("portal.memberships.manage")}
        </button>
      </form>
    </section>
  );
}

export function DataSection({
  workspaceId,
  workspaceName,
  t,
  requestErasure,
}: {
  workspaceId: string;
  workspaceName: string;
  t: Translator;
  requestErasure: Action;
}) {
  const values = { workspace: workspaceName };
  return (
    <section className="stack" aria-labelledby="data-heading">
      <h2 id="data-heading">{t.t("portal.data.heading")}</h2>
      <p>
        <a href={`/portal/${workspaceId}/export`} download>
          {t.t("portal.data.export")}
        </a>
        <br />
        <span className="hint">{t.t("portal.data.exportHint", values)}</span>
      </p>
      <h3>{t.t("portal.data.erasureHeading")}</h3>
      <p id="erasure-hint">{t.t("portal.data.erasureHint", values)}</p>
      <form action={requestErasure} className="stack" aria-describedby="erasure-hint">
        <PageFields workspaceId={workspaceId} t={t} />
        <label className="check">
          <input type="checkbox" name="confirm" value="yes" required />
          {t.t("portal.data.erasureConfirm")}
        </label>
        <button type="submit" className="secondary">
          {t.t("portal.data.erasureSubmit")}
        </button>
      </form>
    </section>
  );
}
