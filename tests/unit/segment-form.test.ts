import { describe, expect, test } from "vitest";
import { segmentFilterSchema } from "@/lib/segments/filter";
import { filterToFormValues, segmentFormToFilter } from "@/lib/segments/segment-form";

const GOLD = "7d1b3c1e-58c1-4bb3-9a56-000000000001";
const PRODUCT = "7d1b3c1e-58c1-4bb3-9a56-000000000002";

describe("segment builder form (docs/decisions.md, 'Segments')", () => {
  test("the Gold example's fields make the filter, and the filter shows again in the same fields", () => {
    const form = {
      name: "Gold",
      op: "and",
      tagIds: GOLD,
      tagMode: "any",
      consent: "subscribed",
      productId: "any",
      purchaseWithinDays: "90",
    };
    const filter = segmentFilterSchema.parse(segmentFormToFilter(form));
    expect(filter.root.conditions.map((c) => c.kind)).toEqual(["tag", "consent", "purchased"]);
    const values = filterToFormValues(filter);
    expect(values).toMatchObject({
      op: "and",
      tagIds: [GOLD],
      consent: "subscribed",
      productId: "any",
      purchaseWithinDays: "90",
    });
    expect(values.filterJson).toBeUndefined();
    expect(segmentFilterSchema.parse(segmentFormToFilter(values))).toEqual(filter);
  });

  test("a filter the fields cannot show (nesting, negation) is shown as JSON, and the JSON wins", () => {
    const filter = segmentFilterSchema.parse({
      version: 1,
      root: {
        kind: "group",
        op: "or",
        conditions: [
          { kind: "purchased", not: true, productId: PRODUCT },
          { kind: "group", op: "and", conditions: [{ kind: "source", sources: ["form"] }] },
        ],
      },
    });
    const values = filterToFormValues(filter);
    expect(Object.keys(values)).toEqual(["filterJson"]);
    expect(segmentFilterSchema.parse(segmentFormToFilter({ ...values, consent: "subscribed" }))).toEqual(
      filter,
    );
  });

  test("attended (checked in at) an event: the builder's field makes event_attended and shows it again", () => {
    const filter = segmentFilterSchema.parse(segmentFormToFilter({ attendedEventId: PRODUCT }));
    expect(filter.root.conditions).toEqual([{ kind: "event_attended", not: false, eventId: PRODUCT }]);
    expect(filterToFormValues(filter)).toMatchObject({ attendedEventId: PRODUCT });
    const any = segmentFilterSchema.parse(segmentFormToFilter({ attendedEventId: "any" }));
    expect(any.root.conditions).toEqual([{ kind: "event_attended", not: false }]);
  });

  test("JSON that does not parse is refused by the schema, not thrown", () => {
    expect(segmentFilterSchema.safeParse(segmentFormToFilter({ filterJson: "{nope" })).success).toBe(false);
  });
});
