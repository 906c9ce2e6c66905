import { afterPosition, microsSql, type TimelineSource } from "./types";

/** How much of a submission the timeline shows (docs/decisions.md, "Contact timeline"). */
export const PAYLOAD_MAX_FIELDS = 20;
export const PAYLOAD_MAX_KEY = 80;
export const PAYLOAD_MAX_VALUE = 300;

const clip = (s: string, max: number) => (s.length > max ? `${s.slice(0, max)}…` : s);

function valueText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (Array.isArray(value) && value.every((v) => typeof v !== "object" || v === null))
    return value.map((v) => String(v ?? "")).join(", ");
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

/**
 * A submission's payload as lines 'field: value', bounded: at most PAYLOAD_MAX_FIELDS fields,
 * keys and values clipped; the rest counted. The lines are text: they are escaped where the HTML
 * is built (titledHtml) and shown through the sanitizer.
 */
export function payloadLines(payload: unknown): string[] {
  if (payload === null || typeof payload !== "object" || Array.isArray(payload))
    return payload === null || payload === undefined ? [] : [clip(valueText(payload), PAYLOAD_MAX_VALUE)];
  const fields = Object.entries(payload as Record<string, unknown>).filter(([, v]) => valueText(v) !== "");
  const lines = fields
    .slice(0, PAYLOAD_MAX_FIELDS)
    .map(([k, v]) => `${clip(k, PAYLOAD_MAX_KEY)}: ${clip(valueText(v), PAYLOAD_MAX_VALUE)}`);
  const more = fields.length - PAYLOAD_MAX_FIELDS;
  if (more > 0) lines.push(`and ${more} more field${more === 1 ? "" : "s"}`);
  return lines;
}

/** The contact's form submissions (form_submissions) with what they sent. */
export const formEntries: TimelineSource = {
  kind: "form",
  query: (db, q) => db`(
    select f.created_at as at, ${microsSql(db, "f.created_at")} as micros, 'form' as kind, f.id::text as id,
      'System' as author,
      jsonb_build_object('form', fm.name, 'payload', f.payload, 'type', f.submission_type) as d
    from public.form_submissions f
    left join public.forms fm on fm.id = f.form_id and fm.workspace_id = f.workspace_id
    where f.contact_id = ${q.contactId} and f.workspace_id = ${q.workspaceId}
      ${afterPosition(db, "form", "f.created_at", "f.id", q.before)}
    order by f.created_at desc, f.id desc
    limit ${q.limit})`,
  render: ({ d }) => ({
    title: `Form submitted${d.form ? `: ${d.form}` : ""}`,
    facts: [d.type === "api_key" && "Sent through the form's API key"],
    list: payloadLines(d.payload),
  }),
};
