import type { Metadata } from "next";
import Link from "next/link";
import { requireMember, ADMIN_ROLES } from "@/lib/auth/context";
import { withUser } from "@/lib/db/doors";
import { getEvents } from "@/lib/events/get-events";
import { getEventsSchema } from "@/lib/events/schemas";
import { displayPrice } from "@/lib/events/ticket-pricing";
import { formatEventDateTime } from "@/lib/time/format";
import { FilterSelect } from "@/components/filter-select";
import { DataTable } from "@/components/ui/data-table";

export const metadata: Metadata = { title: "Events" };

type Search = Record<string, string | string[] | undefined>;
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? "";

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
  const page = await withUser(ctx.claims, (db) =>
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
        <FilterSelect
          label="When"
          name="upcoming"
          defaultValue={params.upcoming}
          options={[
            { value: "", label: "All" },
            { value: "true", label: "Upcoming" },
            { value: "false", label: "Past" },
          ]}
        />
        <FilterSelect
          label="Status"
          name="published"
          defaultValue={params.published}
          options={[
            { value: "", label: "All" },
            { value: "true", label: "Published" },
            { value: "false", label: "Not published" },
          ]}
        />
        <FilterSelect
          label="Sort by"
          name="sortBy"
          defaultValue={params.sortBy}
          options={[
            { value: "start_time", label: "Start" },
            { value: "name", label: "Name" },
            { value: "created_at", label: "Created" },
          ]}
        />
        <FilterSelect
          label="Order"
          name="sortDir"
          defaultValue={params.sortDir}
          options={[
            { value: "asc", label: "Ascending" },
            { value: "desc", label: "Descending" },
          ]}
        />
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
