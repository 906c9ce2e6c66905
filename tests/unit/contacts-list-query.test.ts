import { describe, expect, test } from "vitest";
import { listQueryString, parseListQuery } from "@/lib/contacts/list-query";

const A = "0b6f4a5e-2b7e-4c1a-9a57-3f2f5d0f8a11";
const B = "6c1d1c1e-9b0a-4c3e-8d7e-1e2f3a4b5c6d";

describe("contacts list: every filter and sort kept in the URL", () => {
  test("defaults: page 1, 25 a page, created_at desc, tags 'any'", () => {
    expect(parseListQuery({})).toEqual({
      query: {
        page: 1,
        pageSize: 25,
        search: undefined,
        tagIds: [],
        tagMode: "any",
        excludeTagIds: [],
        source: undefined,
        eventId: undefined,
        emailStatus: undefined,
        segmentId: undefined,
        sortBy: "created_at",
        sortDir: "desc",
        customFields: [],
        columns: [],
      },
      ignored: false,
    });
  });

  test("a full query survives the round trip through the URL", () => {
    const { query } = parseListQuery({
      search: "ada",
      source: "import",
      eventId: B,
      tagIds: [A, B],
      tagMode: "all",
      excludeTagIds: B,
      sortBy: "name",
      sortDir: "asc",
      pageSize: "50",
      page: "3",
    });
    const again = parseListQuery(
      Object.fromEntries(groupEntries(new URLSearchParams(listQueryString(query)))),
    );
    expect(again).toEqual({ query, ignored: false });
  });

  test("the legacy tagId joins tagIds; page size is at most 100", () => {
    const { query } = parseListQuery({ tagId: A, tagIds: B, pageSize: "500" });
    expect(query.tagIds).toEqual([A, B]);
    expect(query.pageSize).toBe(100);
  });

  test("values that do not parse are dropped and reported", () => {
    const { query, ignored } = parseListQuery({ tagIds: ["nope", A], sortBy: "email", page: "-3" });
    expect(ignored).toBe(true);
    expect([query.tagIds, query.sortBy, query.page]).toEqual([[A], "created_at", 1]);
  });
});

function groupEntries(params: URLSearchParams): [string, string | string[]][] {
  const out = new Map<string, string[]>();
  for (const [k, v] of params) out.set(k, [...(out.get(k) ?? []), v]);
  return [...out].map(([k, v]) => [k, v.length === 1 ? v[0] : v]);
}
