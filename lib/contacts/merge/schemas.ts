import { z } from "zod";
import { CONTACT_NOT_FOUND } from "@/lib/contacts/types";
import { uuidField } from "@/lib/ids/uuid";
import { MERGE_FIELD_KEYS, type MergeChoices } from "./merge-fields";

const side = z.enum(["a", "b"]).optional();

/**
 * The merge form (docs/decisions.md, "Merging contacts"): A and B, a radio per field ('a' or
 * 'b'; a field not sent keeps the default of resolveMergedFields) and the confirmation box.
 */
export const mergeContactsSchema = z
  .object({
    contactId: uuidField(CONTACT_NOT_FOUND),
    mergeId: uuidField(CONTACT_NOT_FOUND),
    confirm: z.literal("on", { error: "Tick the box to confirm that the other contact is deleted." }),
    ...(Object.fromEntries(MERGE_FIELD_KEYS.map((key) => [key, side])) as Record<
      keyof MergeChoices,
      typeof side
    >),
  })
  // the custom fields' radio groups, `cf_<key>` (merge-custom-fields.ts)
  .catchall(z.unknown());

export type MergeContactsForm = z.output<typeof mergeContactsSchema>;

/** The member's choices out of the parsed form. */
export function choicesOf(form: MergeContactsForm): MergeChoices {
  return Object.fromEntries(
    MERGE_FIELD_KEYS.filter((key) => form[key]).map((key) => [key, form[key]]),
  ) as MergeChoices;
}
