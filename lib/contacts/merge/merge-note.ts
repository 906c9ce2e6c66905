import type { MergeOutcome } from "./merge-contacts";
import { MERGE_FIELDS } from "./merge-fields";

const TABLE_LABELS: Record<string, string> = {
  contact_tags: "tags",
  notes: "notes",
  company_contacts: "companies",
  deals: "deals",
  tasks: "tasks",
  appointment_external_attendees: "appointments",
  campaign_enrollments: "campaign enrollments",
  event_registrations: "event registrations",
  transactions: "transactions",
  email_sends: "emails sent",
  contact_suppressions: "suppressions",
  agreement_contacts: "agreements",
  form_submissions: "form submissions",
  consent_events: "consent ledger entries",
  notifications: "notifications",
  automation_runs: "automation runs",
};

/**
 * The system note on A after a merge (docs/decisions.md, "Merging contacts"): which contact was
 * merged, which fields came from it, and what moved. Plain text; addNote escapes it into HTML.
 */
export function mergeNoteText(outcome: Omit<MergeOutcome, "keepId">): string {
  const labels = [
    ...MERGE_FIELDS.filter((f) => outcome.fromB.includes(f.key)).map((f) => f.label.toLowerCase()),
    ...outcome.customFromB.map((key) => `custom field ${key}`),
  ];
  const moved = Object.entries(outcome.moved)
    .filter(([, m]) => m.moved > 0)
    .map(([table, m]) => `${m.moved} ${TABLE_LABELS[table] ?? table}`);
  const lines = [
    `Merged contact ${outcome.mergedEmail} (${outcome.mergeId}) into this contact.`,
    labels.length
      ? `Taken from the merged contact: ${labels.join(", ")}.`
      : "All fields kept from this contact.",
    moved.length ? `Moved here: ${moved.join(", ")}.` : "The merged contact had no records to move.",
  ];
  if (outcome.consentChanged === "unsubscribed")
    lines.push(
      "Marketing consent: the merged contact had withdrawn consent, so this contact is unsubscribed.",
    );
  if (outcome.consentChanged === "subscribed")
    lines.push("Marketing consent: taken from the merged contact, which had opted in.");
  return lines.join("\n");
}
