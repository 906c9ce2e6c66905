/**
 * The settings sections other areas add. Each issue fills in its entry's `href` when its
 * page exists (for example `/settings/api-keys`); until then the entry is listed as
 * coming soon.
 */
export interface SettingsSection {
  title: string;
  description: string;
  href?: string;
}

export const SETTINGS_SECTIONS: SettingsSection[] = [
  { title: "Email", description: "The subscribe footer added to transactional email." },
  { title: "Payments", description: "Your Stripe connection and purchaser auto-subscribe." },
  { title: "Ticketing", description: "Your Eventbrite connection and attendee auto-subscribe." },
  { title: "API keys", description: "Keys for the public events API, shown once, revocable." },
];
