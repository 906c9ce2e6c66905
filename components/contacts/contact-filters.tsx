import Link from "next/link";
import type { ListOptions } from "@/lib/contacts/get-list-options";
import type { ListQuery } from "@/lib/contacts/list-query";
import { FilterSelect } from "@/components/filter-select";
import type { CustomField } from "@/lib/contacts/custom-fields/types";
import { CustomFieldFilters } from "./custom-field-filters";

const SORT_BY = [
  { value: "created_at", label: "Date added" },
  { value: "name", label: "Name" },
  { value: "source", label: "Source" },
];
const SORT_DIR = [
  { value: "desc", label: "Descending" },
  { value: "asc", label: "Ascending" },
];
const PAGE_SIZES = ["25", "50", "100"];

const choice = ({ id, name }: { id: string; name: string }) => ({ value: id, label: name });

/**
 * The list's filters as a plain GET form: every filter and the sort land in the URL, so a
 * filtered list can be bookmarked, shared and navigated back to; it works without script.
 */
export function ContactFilters({
  query,
  options,
  customFields = [],
}: {
  query: ListQuery;
  options: ListOptions;
  customFields?: CustomField[];
}) {
  const tagChoices = {
    multiple: true,
    size: Math.min(5, options.tags.length),
    options: options.tags.map(choice),
  };
  return (
    <form method="get" action="/contacts" className="card stack" aria-label="Filter contacts">
      {query.segmentId && <input type="hidden" name="segment" value={query.segmentId} />}
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
        <FilterSelect
          label="Source"
          name="source"
          defaultValue={query.source ?? ""}
          options={[{ value: "", label: "All sources" }, ...options.sources]}
        />
        <FilterSelect
          label="Email status"
          name="emailStatus"
          defaultValue={query.emailStatus ?? ""}
          options={[
            { value: "", label: "Any status" },
            { value: "subscribed", label: "Subscribed" },
            { value: "not_opted_in", label: "Not opted in" },
            { value: "unsubscribed", label: "Unsubscribed" },
            { value: "suppressed", label: "Suppressed (bounce, complaint, blocked)" },
          ]}
        />
        {options.events.length > 0 && (
          <FilterSelect
            label="Registered for"
            name="eventId"
            defaultValue={query.eventId ?? ""}
            options={[{ value: "", label: "Any or no event" }, ...options.events.map(choice)]}
          />
        )}
      </div>
      {options.tags.length > 0 && (
        <div className="row" style={{ alignItems: "flex-start" }}>
          <FilterSelect label="With tags" name="tagIds" defaultValue={query.tagIds} {...tagChoices} />
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
          <FilterSelect
            label="Without tags"
            name="excludeTagIds"
            defaultValue={query.excludeTagIds}
            {...tagChoices}
          />
        </div>
      )}
      <CustomFieldFilters fields={customFields} filters={query.customFields} columns={query.columns ?? []} />
      <div className="row">
        <FilterSelect label="Sort by" name="sortBy" defaultValue={query.sortBy} options={SORT_BY} />
        <FilterSelect label="Order" name="sortDir" defaultValue={query.sortDir} options={SORT_DIR} />
        <FilterSelect
          label="Per page"
          name="pageSize"
          defaultValue={String(query.pageSize)}
          options={PAGE_SIZES}
        />
        <button type="submit">Apply filters</button>
        <Link href="/contacts" className="button secondary">
          Clear
        </Link>
      </div>
    </form>
  );
}
