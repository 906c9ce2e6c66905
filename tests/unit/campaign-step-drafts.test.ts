import { describe, expect, test } from "vitest";
import {
  choicesFromGoals,
  draftFromStep,
  goalsFromChoices,
  newDraft,
  stepFromDraft,
} from "@/components/campaigns/step-drafts";

/**
 * The builder's editing shape and the step format (docs/api.md, "Campaign steps"): a stored
 * step read into the builder and written back is the same step, so saving an untouched campaign
 * changes nothing; new steps take the first free name of their type.
 */
const TAG = "6f1c1a52-6a3e-4c55-9d0b-2b8f7f1c0a11";
const SEGMENT = "0d7b4b1e-3b5d-4b8e-8b53-3f4f2b8c9e22";

const series = [
  { id: "welcome", type: "send_email", subject: "Hi {{first_name}}", body: "Hello", topic_id: TAG },
  { id: "pause", type: "wait", duration: { days: 2, hours: 3 } },
  { id: "monday", type: "wait", until: { weekday: "monday", time: "09:00" }, next: "clicked" },
  { id: "clicked", type: "branch", condition: { type: "clicked", step: "welcome" }, else: "nudge" },
  { id: "tagged", type: "branch", condition: { type: "has_tag", tag_id: TAG }, then: "end" },
  { id: "segment", type: "branch", condition: { type: "in_segment", segment_id: SEGMENT } },
  { id: "tag", type: "add_tag", tag_id: TAG, next: "end" },
  { id: "untag", type: "remove_tag", tag_id: TAG },
  { id: "nudge", type: "send_email", subject: "Psst", body: "Look" },
  {
    id: "hola",
    type: "send_email",
    subject: "Hi",
    body: "Hello",
    translations: { es: { subject: "Hola", body: "¡Hola!" }, de: { subject: "Hallo", body: "Hallo!" } },
  },
  { id: "reminder", type: "wait", before_event: { hours: 24 } },
  { id: "gala", type: "wait", before_event: { hours: 2, event_id: SEGMENT } },
  { id: "gold", type: "branch", condition: { type: "custom_field", key: "tier", op: "eq", value: "gold" } },
  { id: "set", type: "branch", condition: { type: "custom_field", key: "tier", op: "set" } },
  { id: "bought", type: "branch", condition: { type: "purchased", product_id: TAG } },
  { id: "any-buy", type: "branch", condition: { type: "purchased" } },
  { id: "came", type: "branch", condition: { type: "attended", event_id: SEGMENT } },
  { id: "reg", type: "branch", condition: { type: "registered" } },
  { id: "missed", type: "branch", condition: { type: "no_show" } },
  { id: "join", type: "join_topic", topic_id: TAG },
  { id: "leave", type: "leave_topic", topic_id: TAG, next: "end" },
  { id: "call", type: "create_task", title: "Call {{first_name}}", due_in_days: 2, assignee_user_id: TAG },
  { id: "todo", type: "create_task", title: "Look" },
  { id: "city", type: "update_field", field: "city", value: "Paris" },
  { id: "hook", type: "send_webhook", endpoint_id: TAG, label: "done" },
  { id: "all-hooks", type: "send_webhook" },
  { id: "tell", type: "notify_member", title: "Done", body: "See", user_id: TAG },
  { id: "bye", type: "exit" },
];

describe("campaign builder drafts", () => {
  test("every step type reads into the builder and writes back unchanged", () => {
    expect(series.map((s, i) => stepFromDraft(draftFromStep(s, i)))).toEqual(series);
  });

  test("a language left empty in the builder is no translation; a filled one is sent", () => {
    const d = {
      ...newDraft("send_email", []),
      subject: "Hi",
      body: "Hello",
      translations: { es: { subject: "Hola", body: "¡Hola!" }, fr: { subject: "", body: "  " } },
    };
    expect(stepFromDraft(d)).toEqual({
      id: "email-1",
      type: "send_email",
      subject: "Hi",
      body: "Hello",
      translations: { es: { subject: "Hola", body: "¡Hola!" } },
    });
  });

  test("a wait's empty fields are left out and a typed non-number is sent as typed (the server refuses it beside the step)", () => {
    const d = { ...newDraft("wait", []), days: "", hours: "0", minutes: "x" };
    expect(stepFromDraft(d)).toEqual({ id: "wait-1", type: "wait", duration: { hours: 0, minutes: "x" } });
  });

  test("a new step takes the first free name of its type; a new branch reads the last send step above it", () => {
    const steps = [draftFromStep(series[0], 0), newDraft("send_email", [])];
    expect(steps[1].id).toBe("email-1");
    const taken = [...steps, { ...newDraft("send_email", []), id: "email-2" }];
    expect(newDraft("send_email", taken).id).toBe("email-3");
    expect(newDraft("branch", taken)).toMatchObject({
      id: "branch-1",
      condType: "clicked",
      condStep: "email-2",
    });
  });

  test("the goal checkboxes are goals of each type, read and written back unchanged", () => {
    const goals = [
      { type: "tag_added", tag_id: TAG },
      { type: "purchased", product_id: TAG },
      { type: "form_submitted", form_id: SEGMENT },
      { type: "segment_entered", segment_id: SEGMENT },
    ];
    expect(goalsFromChoices(choicesFromGoals([...goals, { type: "other" }]))).toEqual(goals);
  });

  test("a custom field's value is sent as its type takes it", () => {
    const fields = [
      { key: "age", label: "Age", field_type: "number" },
      { key: "vip", label: "VIP", field_type: "boolean" },
    ];
    const d = { ...newDraft("update_field", []), field: "custom:age", value: "42" };
    expect(stepFromDraft(d, fields)).toEqual({
      id: "field-1",
      type: "update_field",
      custom_field: "age",
      value: 42,
    });
    const b = {
      ...newDraft("branch", []),
      condType: "custom_field" as const,
      condKey: "vip",
      condValue: "true",
    };
    expect(stepFromDraft(b, fields).condition).toEqual({
      type: "custom_field",
      key: "vip",
      op: "eq",
      value: true,
    });
  });

  test("stored steps keep keys from their position, so the server's render and the browser's agree", () => {
    expect(series.map((s, i) => draftFromStep(s, i).key)).toEqual(series.map((_, i) => `stored-${i}`));
  });
});
