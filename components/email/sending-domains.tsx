"use client";

import { ConfirmAction } from "@/components/confirm-action";
import { Field, SelectField, SubmitButton } from "@/components/form-controls";
import { CopyButton } from "@/components/forms/copy-button";
import { ActionForm } from "@/components/ui/action-form";
import type { SenderSettings } from "@/lib/email/from-address";
import type { SendingDomain } from "@/lib/email/sending-domains";
import type { FormAction } from "@/lib/http/form-state";

const REGIONS = [
  { value: "us-east-1", label: "North America (us-east-1)" },
  { value: "eu-west-1", label: "Europe (eu-west-1)" },
  { value: "sa-east-1", label: "South America (sa-east-1)" },
  { value: "ap-northeast-1", label: "Asia (ap-northeast-1)" },
];

/** Resend's status in words, and the badge's colour (the badge classes of email statuses). */
const STATUS: Record<string, { text: string; badge: string }> = {
  verified: { text: "Verified", badge: "subscribed" },
  pending: { text: "Checking DNS", badge: "unsubscribed" },
  not_started: { text: "Waiting for DNS records", badge: "unsubscribed" },
  partially_verified: { text: "Partly verified", badge: "unsubscribed" },
  partially_failed: { text: "Partly failed", badge: "bounced" },
  temporary_failure: { text: "Temporarily failing", badge: "unsubscribed" },
  failed: { text: "Failed", badge: "bounced" },
};

/**
 * The workspace's own sending domains (docs/decisions.md, "Sending domains and warm-up"): add one,
 * create the DNS records it lists (copy buttons), check it now, remove it; then choose the From
 * on a verified domain. Owners and admins act; every member sees the state.
 */
export function SendingDomains({
  domains,
  sender,
  canEdit,
  addAction,
  checkAction,
  removeAction,
  senderAction,
}: {
  domains: SendingDomain[];
  sender: SenderSettings;
  canEdit: boolean;
  addAction: FormAction;
  checkAction: FormAction;
  removeAction: FormAction;
  senderAction: FormAction;
}) {
  const verified = domains.filter((d) => d.status === "verified");
  return (
    <section className="stack" aria-labelledby="sending-domains-heading">
      <h2 id="sending-domains-heading">Sending domains</h2>
      <p className="hint">
        Send from your own domain so your mail is authenticated as yours (SPF, DKIM) and reaches inboxes.
        Until one is verified, mail leaves from this service&apos;s address with your workspace&apos;s name. A
        new domain warms up: its broadcasts send a limited number of emails a day that doubles each day it
        sends, and the rest follows the next day.
      </p>
      {domains.map((domain) => (
        <DomainCard
          key={domain.id}
          domain={domain}
          canEdit={canEdit}
          checkAction={checkAction}
          removeAction={removeAction}
        />
      ))}
      {canEdit ? (
        <ActionForm action={addAction} messageId="add-domain-message">
          {(state) => (
            <fieldset className="stack">
              <legend>Add a domain</legend>
              <Field
                label="Domain"
                name="domain"
                placeholder="mail.example.org"
                hint="A domain or subdomain you control, such as mail.example.org."
                autoCapitalize="none"
                autoCorrect="off"
                spellCheck={false}
                state={state}
                defaultValue={state.values?.domain}
                required
              />
              <SelectField label="Region" name="region" options={REGIONS} state={state} />
              <SubmitButton pendingLabel="Adding…">Add domain</SubmitButton>
            </fieldset>
          )}
        </ActionForm>
      ) : (
        <p className="hint">Only owners and admins can add sending domains.</p>
      )}
      <ActionForm action={senderAction} messageId="sender-message">
        {(state) => (
          <fieldset className="stack" disabled={!canEdit || verified.length === 0}>
            <legend>From address</legend>
            {verified.length === 0 && <p className="hint">Available once a domain is verified.</p>}
            <Field
              label="Sender name"
              name="fromName"
              placeholder="Théâtre Lumière"
              state={state}
              defaultValue={state.values?.fromName ?? sender.email_from_name ?? ""}
            />
            <Field
              label="Address before the @"
              name="fromLocal"
              placeholder="news"
              autoCapitalize="none"
              autoCorrect="off"
              spellCheck={false}
              state={state}
              defaultValue={state.values?.fromLocal ?? sender.email_from_local ?? ""}
            />
            <SelectField
              label="Domain"
              name="fromDomain"
              options={[{ value: "", label: "This service's address" }, ...verified.map((d) => d.domain)]}
              state={state}
              defaultValue={state.values?.fromDomain ?? sender.email_from_domain ?? ""}
            />
            <SubmitButton pendingLabel="Saving…">Save from address</SubmitButton>
          </fieldset>
        )}
      </ActionForm>
    </section>
  );
}

function DomainCard({
  domain,
  canEdit,
  checkAction,
  removeAction,
}: {
  domain: SendingDomain;
  canEdit: boolean;
  checkAction: FormAction;
  removeAction: FormAction;
}) {
  const status = STATUS[domain.status] ?? { text: domain.status, badge: "" };
  return (
    <article className="card stack" aria-labelledby={`domain-${domain.id}`}>
      <h3 id={`domain-${domain.id}`} style={{ margin: 0, overflowWrap: "anywhere" }}>
        {domain.domain} <span className={`badge ${status.badge}`}>{status.text}</span>
      </h3>
      <p className="hint">
        DMARC:{" "}
        {domain.dmarc?.found
          ? `a record exists (policy ${domain.dmarc.policy ?? "not set"}).`
          : domain.dmarc?.error
            ? "could not be looked up; it is looked up again at the next check."
            : "no record at _dmarc." +
              domain.domain +
              ". Gmail and Yahoo expect one from bulk senders (p=none is enough to start)."}
      </p>
      {domain.status !== "verified" && (
        <table className="data">
          <caption>Create these DNS records at your DNS provider</caption>
          <thead>
            <tr>
              <th scope="col">Type</th>
              <th scope="col">Name</th>
              <th scope="col">Value</th>
              <th scope="col">Priority</th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {domain.records.map((record, i) => (
              <tr key={i}>
                <td>
                  {record.record} {record.type}
                </td>
                <td>
                  <code style={{ overflowWrap: "anywhere" }}>{record.name}</code>{" "}
                  <CopyButton
                    text={record.name}
                    accessibleName={`Copy the name of the ${record.record} ${record.type} record`}
                  />
                </td>
                <td>
                  <code style={{ overflowWrap: "anywhere", wordBreak: "break-all" }}>{record.value}</code>{" "}
                  <CopyButton
                    text={record.value}
                    accessibleName={`Copy the value of the ${record.record} ${record.type} record`}
                  />
                </td>
                <td>{record.priority ?? ""}</td>
                <td>{STATUS[record.status]?.text ?? record.status}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {canEdit && (
        <div className="row">
          <ActionForm action={checkAction} messageId={`check-${domain.id}`} className="row">
            {() => (
              <>
                <input type="hidden" name="sendingDomainId" value={domain.id} />
                <SubmitButton pendingLabel="Checking…" className="secondary">
                  Check now
                </SubmitButton>
              </>
            )}
          </ActionForm>
          <ConfirmAction
            action={removeAction}
            fields={{ sendingDomainId: domain.id }}
            label="Remove"
            accessibleName={`Remove the domain ${domain.domain}`}
            title={`Remove ${domain.domain}?`}
            body="Mail stops leaving from this domain at once and goes from this service's address. Adding it again means verifying it again."
            confirmLabel="Remove domain"
          />
        </div>
      )}
    </article>
  );
}
