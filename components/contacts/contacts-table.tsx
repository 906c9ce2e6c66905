import Link from "next/link";
import { EmailStatusBadge } from "@/components/email-status-badge";
import type { ContactListRow } from "@/lib/contacts/get-contacts";
import { listQueryString, type ListQuery } from "@/lib/contacts/list-query";
import { formatPhoneForDisplay } from "@/lib/contacts/phone";
import { formatDate } from "@/lib/time/format";
import { TagBadge } from "./tag-badge";
import { customFieldText } from "@/lib/contacts/custom-fields/diff-custom-fields";
import type { CustomField } from "@/lib/contacts/custom-fields/types";

export function contactName(c: {
  first_name: string | null;
  last_name: string | null;
  email: string;
}): string {
  return [c.first_name, c.last_name].filter(Boolean).join(" ") || c.email;
}

function SortHeader({
  label,
  field,
  query,
}: {
  label: string;
  field: ListQuery["sortBy"];
  query: ListQuery;
}) {
  const active = query.sortBy === field;
  const nextDir = active && query.sortDir === "asc" ? "desc" : "asc";
  return (
    <th aria-sort={active ? (query.sortDir === "asc" ? "ascending" : "descending") : undefined}>
      <Link href={`/contacts${listQueryString(query, { sortBy: field, sortDir: nextDir, page: 1 })}`}>
        {label}
        {active ? (query.sortDir === "asc" ? " ▲" : " ▼") : ""}
      </Link>
    </th>
  );
}

/** The contacts page: name, email, phone (spec 4.15 display), source, tags, badge (3.4), date. */
export function ContactsTable({
  rows,
  query,
  timeZone,
  columns = [],
}: {
  rows: ContactListRow[];
  query: ListQuery;
  timeZone: string;
  /** custom fields chosen as columns */
  columns?: CustomField[];
}) {
  return (
    <table className="data">
      <caption className="sr-only">Contacts</caption>
      <thead>
        <tr>
          <SortHeader label="Name" field="name" query={query} />
          <th scope="col">Email</th>
          <th scope="col">Phone</th>
          <SortHeader label="Source" field="source" query={query} />
          <th scope="col">Tags</th>
          <th scope="col">Email status</th>
          <SortHeader label="Added" field="created_at" query={query} />
          {columns.map((f) => (
            <th key={f.key} scope="col">
              {f.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((c) => (
          <tr key={c.id}>
            <td>
              <Link href={`/contacts/${c.id}`}>{contactName(c)}</Link>
            </td>
            <td>{c.email}</td>
            <td>{formatPhoneForDisplay(c.phone)}</td>
            <td>{c.source}</td>
            <td>
              <span className="row" style={{ gap: "0.25rem" }}>
                {c.tags.map((t) => (
                  <TagBadge
                    key={t.id}
                    tag={t}
                    href={`/contacts${listQueryString(query, { tagIds: [t.id], tagMode: "any", page: 1 })}`}
                  />
                ))}
              </span>
            </td>
            <td>
              <EmailStatusBadge status={c.emailStatus} />
            </td>
            <td>
              <time dateTime={c.created_at.toISOString()}>{formatDate(c.created_at, timeZone)}</time>
            </td>
            {columns.map((f) => (
              <td key={f.key}>{customFieldText(c.custom_fields?.[f.key])}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
