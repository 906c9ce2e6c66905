import type { Condition, SegmentFilter } from "./filter";

/**
 * The builder form of the segment pages (works without JavaScript): one optional field set per
 * condition kind, joined by "all" or "any"; a blank set adds no condition. Nested groups and
 * negations beyond these are written in the form's JSON field, which wins when filled.
 */
export type SegmentFormValues = Record<string, string | string[] | undefined>;

const list = (v: string | string[] | undefined) => (v === undefined ? [] : [v].flat().filter(Boolean));
const text = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v)?.trim() ?? "";
const num = (v: string | string[] | undefined) => (text(v) === "" ? undefined : Number(text(v)));
const window = (v: string | string[] | undefined) => (num(v) === undefined ? {} : { withinDays: num(v) });
/** A picker's "any" (any form, event or product) names no id: the condition then matches any. */
const chosenId = (id: string) => (id === "any" ? undefined : id);

/** The form's fields as a filter object, unvalidated (saveSegment validates it). */
export function segmentFormToFilter(form: SegmentFormValues): unknown {
  const json = text(form.filterJson);
  if (json) {
    try {
      return JSON.parse(json);
    } catch {
      return { version: 1, root: "The JSON filter does not parse." };
    }
  }
  const c: unknown[] = [];
  const tagIds = list(form.tagIds);
  if (tagIds.length) c.push({ kind: "tag", match: text(form.tagMode) || "any", tagIds });
  const excluded = list(form.excludeTagIds);
  if (excluded.length) c.push({ kind: "tag", not: true, tagIds: excluded });
  const sources = list(form.sources);
  if (sources.length) c.push({ kind: "source", sources });
  if (text(form.consent)) c.push({ kind: "consent", state: text(form.consent) });
  const suppression = text(form.suppression);
  if (suppression === "none") c.push({ kind: "suppression", not: true });
  else if (suppression === "any") c.push({ kind: "suppression" });
  else if (suppression) c.push({ kind: "suppression", reasons: [suppression] });
  if (num(form.createdWithinDays) !== undefined)
    c.push({ kind: "created", window: window(form.createdWithinDays) });
  const formId = text(form.formId);
  if (formId)
    c.push({ kind: "form_submitted", formId: chosenId(formId), window: window(form.formWithinDays) });
  const eventId = text(form.eventId);
  if (eventId) c.push({ kind: "event_registered", eventId: chosenId(eventId) });
  const attendedEventId = text(form.attendedEventId);
  if (attendedEventId) c.push({ kind: "event_attended", eventId: chosenId(attendedEventId) });
  const noShowEventId = text(form.noShowEventId);
  if (noShowEventId) c.push({ kind: "event_no_show", eventId: chosenId(noShowEventId) });
  const productId = text(form.productId);
  if (productId)
    c.push({
      kind: "purchased",
      productId: chosenId(productId),
      minAmount: num(form.minAmount),
      window: window(form.purchaseWithinDays),
    });
  if (text(form.engagement))
    c.push({
      kind: "email_engagement",
      event: text(form.engagement),
      window: window(form.engagementWithinDays),
    });
  return { version: 1, root: { kind: "group", op: text(form.op) === "or" ? "or" : "and", conditions: c } };
}

/**
 * A saved filter as the form's fields when the form can show it (one group, at most one
 * condition of each kind, no negation the form lacks); otherwise its JSON, in the JSON field.
 */
export function filterToFormValues(filter: SegmentFilter): SegmentFormValues {
  const values: SegmentFormValues = { op: filter.root.op };
  const seen = new Set<string>();
  const fits = (k: Condition | SegmentFilter["root"]): boolean => {
    if (k.kind === "group") return false;
    const key = k.kind === "tag" ? `tag:${k.not}` : k.kind;
    if (seen.has(key)) return false;
    seen.add(key);
    const w = "window" in k ? k.window : {};
    if (w.onOrAfter || w.before) return false;
    switch (k.kind) {
      case "tag":
        if (k.not) values.excludeTagIds = k.match === "any" ? k.tagIds : undefined;
        else Object.assign(values, { tagIds: k.tagIds, tagMode: k.match });
        return !k.not || k.match === "any";
      case "source":
        values.sources = k.sources;
        return !k.not;
      case "consent":
        values.consent = k.state;
        return !k.not;
      case "suppression":
        values.suppression = k.not ? (k.reasons.length ? undefined : "none") : (k.reasons[0] ?? "any");
        return k.reasons.length <= (k.not ? 0 : 1);
      case "created":
        values.createdWithinDays = w.withinDays?.toString();
        return !k.not && w.withinDays !== undefined;
      case "form_submitted":
        Object.assign(values, { formId: k.formId ?? "any", formWithinDays: w.withinDays?.toString() });
        return !k.not;
      case "event_registered":
        values.eventId = k.eventId ?? "any";
        return !k.not;
      case "event_attended":
        values.attendedEventId = k.eventId ?? "any";
        return !k.not;
      case "event_no_show":
        values.noShowEventId = k.eventId ?? "any";
        return !k.not;
      case "purchased":
        Object.assign(values, {
          productId: k.productId ?? "any",
          minAmount: k.minAmount?.toString(),
          purchaseWithinDays: w.withinDays?.toString(),
        });
        return !k.not && k.maxAmount === undefined;
      case "email_engagement":
        Object.assign(values, { engagement: k.event, engagementWithinDays: w.withinDays?.toString() });
        return !k.not && !k.broadcastId;
      default:
        return false;
    }
  };
  const simple = !filter.root.not && filter.root.conditions.every(fits);
  return simple ? values : { filterJson: JSON.stringify(filter, null, 2) };
}
