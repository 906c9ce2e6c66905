import type { Db } from "@/lib/db/doors";
import type { Condition, Window } from "./filter";

/** Names of the workspace's tags, forms, events, products and broadcasts, by id (for describing filters). */
export async function filterNames(db: Db, workspaceId: string): Promise<Map<string, string>> {
  const rows = await db<{ id: string; name: string }[]>`
    select id, name from public.tags where workspace_id = ${workspaceId}
    union all select id, name from public.forms where workspace_id = ${workspaceId}
    union all select id, name from public.events where workspace_id = ${workspaceId}
    union all select id, name from public.products where workspace_id = ${workspaceId}
    union all select id, subject from public.broadcasts where workspace_id = ${workspaceId}`;
  return new Map(rows.map((r) => [r.id, r.name]));
}

const CONSENT: Record<string, string> = {
  subscribed: "is subscribed",
  unsubscribed: "has unsubscribed",
  not_opted_in: "has not opted in",
  marketing_eligible: "may get marketing email (spec 8.3)",
};

function windowText(w: Window): string {
  const parts = [
    w.withinDays !== undefined && `in the last ${w.withinDays} days`,
    w.onOrAfter && `on or after ${w.onOrAfter}`,
    w.before && `before ${w.before}`,
  ].filter(Boolean);
  return parts.length ? ` ${parts.join(", ")}` : "";
}

/** One condition in words, e.g. "bought Gold membership for at least 50 in the last 90 days". */
export function describeCondition(c: Condition, names: Map<string, string>): string {
  const name = (id: string | undefined, fallback: string) =>
    id ? `'${names.get(id) ?? "unknown"}'` : fallback;
  const text = ((): string => {
    switch (c.kind) {
      case "tag":
        return `has ${c.match === "all" ? "all" : "any"} of the tags ${c.tagIds.map((t) => name(t, "")).join(", ")}`;
      case "source":
        return `source is ${c.sources.join(" or ")}`;
      case "search":
        return `matches the search '${c.text}'`;
      case "email_status":
        return `email status is ${c.status.replace(/_/g, " ")}`;
      case "consent":
        return CONSENT[c.state];
      case "suppression":
        return `has a ${c.reasons.length ? c.reasons.join(" or ") : "any"} suppression`;
      case "created":
        return `was created${windowText(c.window)}`;
      case "form_submitted":
        return `submitted ${name(c.formId, "any form")}${windowText(c.window)}`;
      case "event_registered":
        return `is registered for ${name(c.eventId, "any event")}`;
      case "event_attended":
        return `attended ${name(c.eventId, "any event")}`;
      case "event_no_show":
        return `did not show up at ${name(c.eventId, "a past event")} they registered for`;
      case "purchased": {
        const amount = [
          c.minAmount !== undefined && `at least ${c.minAmount}`,
          c.maxAmount !== undefined && `at most ${c.maxAmount}`,
        ].filter(Boolean);
        return `bought ${name(c.productId, "anything")}${amount.length ? ` for ${amount.join(" and ")}` : ""}${windowText(c.window)}`;
      }
      case "custom_field":
        return `custom field ${c.key} ${c.op.replace("_", " ")} ${[c.value, c.values, c.min, c.max, c.text]
          .filter((v) => v !== undefined)
          .map((v) => JSON.stringify(v))
          .join(" ")}`.trim();
      case "email_engagement":
        return `an email${c.broadcastId ? ` of ${name(c.broadcastId, "")}` : ""} was ${c.event}${windowText(c.window)}`;
    }
  })();
  return c.not ? `not: ${text}` : text;
}
