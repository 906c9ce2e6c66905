import { EmailStatusBadge } from "@/components/email-status-badge";
import type { ContactDetails, ProfileName } from "@/lib/contacts/get-contact-by-id";
import { formatPhoneForDisplay } from "@/lib/contacts/phone";
import { formatDateTime } from "@/lib/time/format";

const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

const who = (p: ProfileName | null) =>
  p ? [p.first_name, p.last_name].filter(Boolean).join(" ") || "A member" : "System";

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <>
      <dt className="hint">{label}</dt>
      <dd style={{ margin: "0 0 0.5rem" }}>{children || "—"}</dd>
    </>
  );
}

/** A contact's fields (spec 2.4), its consent and suppressions, and who created and changed it. */
export function ContactDetailsCard({ details, timeZone }: { details: ContactDetails; timeZone: string }) {
  const c = details.contact;
  const address = [
    c.address_line1,
    c.address_line2,
    [c.postal_code, c.city].filter(Boolean).join(" "),
    c.state,
    c.country,
  ]
    .filter(Boolean)
    .join(", ");
  return (
    <div className="row" style={{ alignItems: "flex-start" }}>
      <section className="card" style={{ flex: "1 1 18rem" }} aria-labelledby="details-heading">
        <h2 id="details-heading" style={{ marginTop: 0 }}>
          Details
        </h2>
        <dl>
          <Row label="Email">{c.email}</Row>
          <Row label="Phone">{formatPhoneForDisplay(c.phone)}</Row>
          <Row label="Address">{address}</Row>
          <Row label="Birthday">
            {c.birth_month && c.birth_day ? `${c.birth_day} ${MONTHS[c.birth_month - 1]}` : ""}
          </Row>
          <Row label="Source">{c.source}</Row>
          <Row label="Added">
            {formatDateTime(c.created_at, timeZone)}
            {details.createdBy && ` by ${who(details.createdBy)}`}
          </Row>
          <Row label="Last changed">
            {formatDateTime(c.updated_at, timeZone)} by {who(details.lastModifiedBy)}
          </Row>
        </dl>
      </section>
      <section className="card" style={{ flex: "1 1 18rem" }} aria-labelledby="consent-heading">
        <h2 id="consent-heading" style={{ marginTop: 0 }}>
          Email consent
        </h2>
        <dl>
          <Row label="Status">
            <EmailStatusBadge status={details.emailStatus} />
          </Row>
          <Row label="Subscribed">{c.is_subscribed ? "Yes" : "No"}</Row>
          <Row label="Opted in">{formatDateTime(c.opt_in_timestamp, timeZone)}</Row>
          <Row label="Opt-in source">{c.opt_in_source}</Row>
          <Row label="Opt-in IP">{c.opt_in_ip}</Row>
          <Row label="Unsubscribed">{formatDateTime(c.unsubscribed_at, timeZone)}</Row>
          <Row label="Suppressions">
            {details.suppressions
              .map((s) => `${s.reason} (${formatDateTime(s.created_at, timeZone)})`)
              .join(", ")}
          </Row>
        </dl>
      </section>
    </div>
  );
}
