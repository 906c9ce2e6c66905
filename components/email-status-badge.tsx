import type { EmailStatus } from "@/lib/consent/email-status";

const CLASS: Record<EmailStatus, string> = {
  Spam: "spam",
  Bounced: "bounced",
  Unsubscribed: "unsubscribed",
  Subscribed: "subscribed",
  "Not Opted In": "",
};

/** The spec 3.4 badge; the text is the status itself, so screen readers read it as is. */
export function EmailStatusBadge({ status }: { status: EmailStatus }) {
  return <span className={`badge ${CLASS[status]}`}>{status}</span>;
}
