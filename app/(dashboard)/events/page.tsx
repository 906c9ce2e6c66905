import type { Metadata } from "next";
import Link from "next/link";
import { requireMember, ADMIN_ROLES } from "@/lib/auth/context";
import { withReadUser } from "@/lib/db/doors";
import { getEvents } from "@/lib/events/get-events";
import { getEventsSchema } from "@/lib/events/schemas";
import { displayPrice } from "@/lib/events/ticket-pricing";
import { formatEventDateTime } from "@/lib/time/format";
import { FilterSelect } from "@/components/filter-select";
import { DataTable } from "@/components/ui/data-table";

export const metadata: Metadata = { title: "Events" };

type Search = Record<string, string | string[] | undefined>;
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? "";

/** The list's filter and sort choices, each a select of the filter form (options: value → label). */
const FILTERS = [
  { name: "upcoming", label: "When", options: { "": "All", true: "Upcoming", false: "Past" } },
  { name: "published", label: "Status", options: { "": "All", true: "Published", false: "Not published" } },
  { name: "sortBy", label: "Sort by", options: { start_time: "Start", name: "Name", created_at: "Created" } },
  { name: "sortDir", label: "Order", options: { asc: "Ascending", desc: "Descending" } },
] as const;
const choices = (options: Record<string, string>) =>
  Object.entries(options).map(([value, label]) => ({ value, label }));

export default async function EventsPage({ searchParams }: { searchParams: Promise<Search> }) {
  const ctx = await requireMember();
  const q = await searchParams;
  const filters = getEventsSchema.parse({
    search: one(q.search),
    upcoming: one(q.upcoming),
    published: one(q.published),
    sortBy: one(q.sortBy) || undefined,
    sortDir: one(q.sortDir) || undefined,
    page: one(q.page) || undefined,
  });
  const zone = ctx.timeZone;
  // a list: the read replica when there is one, the member's own writes included (lib/db/replica.ts)
  const page = await withReadUser(ctx.claims, (db) =>
    getEvents(db, { ...filters, workspaceId: ctx.workspace.workspaceId }),
  );
  const tri = (v: boolean | null) => (v === null ? "" : String(v));
  const params = {
    search: filters.search ?? "",
    upcoming: tri(filters.upcoming),
    published: tri(filters.published),
    sortBy: filters.sortBy,
    sortDir: filters.sortDir,
  };
  const isAdmin = ADMIN_ROLES.includes(ctx.workspace.role);
  const pages = Math.max(1, Math.ceil(page.total / page.pageSize));
  const link = (n: number) => `/events?${new URLSearchParams({ ...params, page: String(n) })}`;
  return (
    <>
      <div className="topbar">
        <h1>Events</h1>
        <div className="row">
          <Link href="/settings/ticketing">Eventbrite</Link>
          <Link href="/settings/api-keys">API keys</Link>
          {isAdmin && (
            <Link className="button" href="/events/new">
              New event
            </Link>
          )}
        </div>
      </div>
      {one(q.deleted) && (
        <div role="status" className="alert success">
          The event was deleted.
        </div>
      )}
      <form className="row card" method="get" aria-label="Filter events">
        <label>
          Search
          <input name="search" type="search" defaultValue={params.search} placeholder="Name or location" />
        </label>
        {FILTERS.map(({ name, label, options }) => (
          <FilterSelect
            key={name}
            label={label}
            name={name}
            defaultValue={params[name]}
            options={choices(options)}
          />
        ))}
        <button type="submit" className="secondary">
          Apply
        </button>
      </form>
      <DataTable
        rows={page.data}
        columns={["Name", <>Starts ({zone})</>, "Location", "Price", "Registrations", "Status"]}
        caption={
          <>
            Events, {page.total} in all; times in {zone}
          </>
        }
        empty="No events match."
        style={{ marginTop: "1rem" }}
      >
        {(e) => (
          <tr key={e.id}>
            <td>
              <Link href={`/events/${e.id}`}>{e.name}</Link>
              {e.external_event_id && <span className="badge"> Eventbrite</span>}
            </td>
            <td>{formatEventDateTime(e.start_time, zone)}</td>
            <td>{e.location ?? "—"}</td>
            <td>{displayPrice(e.ticket_price, e.ticket_class_count)}</td>
            <td>{e.registration_count}</td>
            <td>
              <span className={`badge${e.is_published ? " subscribed" : ""}`}>
                {e.is_published ? "Published" : "Not published"}
              </span>
            </td>
          </tr>
        )}
      </DataTable>
      <nav className="pagination" aria-label="Pages">
        {page.page > 1 && <Link href={link(page.page - 1)}>Previous</Link>}
        <span>
          Page {page.page} of {pages}
        </span>
        {page.page < pages && <Link href={link(page.page + 1)}>Next</Link>}
      </nav>
    </>
  );
}
