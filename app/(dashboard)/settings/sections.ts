/** The settings pages of each area, listed on the settings index. */
export interface SettingsSection {
  title: string;
  description: string;
  href?: string;
  /** listed for owners only */
  ownersOnly?: boolean;
}

export const SETTINGS_SECTIONS: SettingsSection[] = [
  {
    title: "Account",
    description: "Your password, and signing out of every session.",
    href: "/settings/account",
  },
  {
    title: "Security",
    description: "Your two-factor authentication; owners require it of every member.",
    href: "/settings/security",
  },
  {
    title: "Email",
    description: "The subscribe footer added to transactional email, the tracking URL.",
    href: "/settings/email",
  },
  {
    title: "Topics",
    description: "The subscription topics people choose from, e.g. Newsletter and Events.",
    href: "/settings/topics",
  },
  {
    title: "Outbox",
    description: "Every email sent or skipped, with the rendered message.",
    href: "/settings/email/outbox",
  },
  {
    title: "Payments",
    description: "Your Stripe connection and purchaser auto-subscribe.",
    href: "/settings/payments",
  },
  {
    title: "Ticketing",
    description: "Your Eventbrite connection and attendee auto-subscribe.",
    href: "/settings/ticketing",
  },
  {
    title: "Custom fields",
    description: "Fields of your own on every contact: text, numbers, dates, yes/no and selects.",
    href: "/settings/custom-fields",
  },
  {
    title: "Import mappings",
    description: "What the columns of your CSV files became, proposed again for the same headers.",
    href: "/settings/import-mappings",
  },
  {
    title: "Webhooks",
    description: "Signed events sent to your own systems as contacts, forms, payments and events change.",
    href: "/settings/webhooks",
  },
  {
    title: "API keys",
    description: "Keys for the public events API, shown once, revocable.",
    href: "/settings/api-keys",
  },
  {
    title: "Audit log",
    description: "Who changed what and when, from which address; filter and export as CSV. Owners only.",
    href: "/settings/audit",
    ownersOnly: true,
  },
];
