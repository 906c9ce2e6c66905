import Link from "next/link";
import type { ListOptions } from "@/lib/contacts/get-list-options";
import type { ListQuery } from "@/lib/contacts/list-query";

/**
 * The list's filters as a plain GET form: every filter and the sort land in the URL, so a
 * filtered list can be bookmarked, shared and navigated back to; it works without script.
 */
export function ContactFilters({ query, options }: { query: ListQuery; options: ListOptions }) {
  return (
    <form method="get" action="/contacts" className="card stack" aria-label="Filter contacts">
      <div className="row">
        <label style={{ flex: "2 1 16rem" }}>
          Search
          <input
            type="search"
            name="search"
            defaultValue={query.search ?? ""}
            placeholder="Name, email or phone"
          />
        </label>
        <label>
          Source
          <select name="source" defaultValue={query.source ?? ""}>
            <option value="">All sources</option>
            {options.sources.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        {options.events.length > 0 && (
          <label>
            Registered for
            <select name="eventId" defaultValue={query.eventId ?? ""}>
              <option value="">Any or no event</option>
              {options.events.map((e) => (
                <option key={e.id} value={e.id}>
                  {e.name}
                </option>
              ))}
            </select>
          </label>
        )}
      </div>
      {options.tags.length > 0 && (
        <div className="row" style={{ alignItems: "flex-start" }}>
          <label>
            With tags
            <select
              name="tagIds"
              multiple
              size={Math.min(5, options.tags.length)}
              defaultValue={query.tagIds}
            >
              {options.tags.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </select>
          </label>
          <fieldset className="stack" style={{ border: "none", padding: 0, margin: 0 }}>
            <legend className="hint">Contacts with</legend>
            <label className="check">
              <input type="radio" name="tagMode" value="any" defaultChecked={query.tagMode === "any"} /> any
              of them
            </label>
            <label className="check">
              <input type="radio" name="tagMode" value="all" defaultChecked={query.tagMode === "all"} /> all
              of them
            </label>
          </fieldset>
          <label>
            Without tags
            <select
              name="excludeTagIds"
              multiple
              size={Math.min(5, options.tags.length)}
              defaultValue={query.excludeTagIds}
            >
              {options.tags.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </select>
          </label>
        </div>
      )}
      <div className="row">
        <label>
          Sort by
          <select name="sortBy" defaultValue={query.sortBy}>
            <option value="created_at">Date added</option>
            <option value="name">Name</option>
            <option value="source">Source</option>
          </select>
        </label>
        <label>
          Order
          <select name="sortDir" defaultValue={query.sortDir}>
            <option value="desc">Descending</option>
            <option value="asc">Ascending</option>
          </select>
        </label>
        <label>
          Per page
          <select name="pageSize" defaultValue={String(query.pageSize)}>
            {[25, 50, 100].map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </label>
        <button type="submit">Apply filters</button>
        <Link href="/contacts" className="button secondary">
          Clear
        </Link>
      </div>
    </form>
  );
}
