import { z } from "zod";
import { LIST_PAGE_SIZE } from "@/lib/http/page-param";
import { uuidSchema } from "@/lib/ids/uuid";
import type { SegmentFilter } from "@/lib/segments/filter";
import { customFieldListFilterSchema } from "./custom-fields/list-filter";

export const DEFAULT_PAGE_SIZE = LIST_PAGE_SIZE;
export const MAX_PAGE_SIZE = 100;
export const SORT_FIELDS = ["created_at", "name", "source"] as const;
export const EMAIL_STATUSES = ["subscribed", "not_opted_in", "unsubscribed", "suppressed"] as const;

const ids = z.array(uuidSchema).max(50, "At most 50 tags per filter.").default([]);

/** Spec 4.15 getContacts parameters, 25 a page (docs/decisions.md, "What the spec leaves open"). */
export const getContactsParamsSchema = z.object({
  workspaceId: uuidSchema,
  page: z.number().int().min(1).max(1_000_000).default(1),
  pageSize: z
    .number()
    .int()
    .min(1)
    .default(DEFAULT_PAGE_SIZE)
    .transform((n) => Math.min(n, MAX_PAGE_SIZE)),
  search: z.string().trim().max(200, "The search can be at most 200 characters.").optional(),
  /** legacy single-tag filter: joins tagIds */
  tagId: uuidSchema.optional(),
  tagIds: ids,
  tagMode: z.enum(["any", "all"]).default("any"),
  excludeTagIds: ids,
  source: z.string().trim().max(100).optional(),
  eventId: uuidSchema.optional(),
  /** the email status of spec 3.4, as the home dashboard's consent share counts it */
  emailStatus: z.enum(EMAIL_STATUSES).optional(),
  sortBy: z.enum(SORT_FIELDS).default("created_at"),
  sortDir: z.enum(["asc", "desc"]).default("desc"),
  /** a saved segment's filter (docs/decisions.md, "Segments"), already parsed by getSegment */
  segment: z.custom<SegmentFilter>((v) => typeof v === "object" && v !== null).optional(),
  /** filters on custom fields (docs/decisions.md, "Custom fields"), all of which must hold */
  customFields: z.array(customFieldListFilterSchema).max(10).default([]),
});

export type GetContactsParams = z.input<typeof getContactsParamsSchema>;
export type ContactsQuery = z.output<typeof getContactsParamsSchema>;

/**
 * Search words: whitespace-separated, each must appear (case-insensitive substring of
 * email, names or phone). A word made of phone characters with 3 or more digits is
 * matched by its digits, so '(202) 555-0143' finds '2025550143'.
 */
export function searchTokens(search: string | undefined): string[] {
  if (!search) return [];
  return search
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 8)
    .map((word) => {
      const digits = word.replace(/\D/g, "");
      return /^[\d()+.\-]+$/.test(word) && digits.length >= 3 ? digits : word;
    });
}

/** A LIKE pattern matching the word anywhere, with its wildcards taken literally. */
export function containsPattern(word: string): string {
  return `%${word.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}
