import { describe, expect, test } from "vitest";
import {
  draftFromStep,
  goalsFromTags,
  newDraft,
  stepFromDraft,
  tagsFromGoals,
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
  { id: "bye", type: "exit" },
];

describe("campaign builder drafts", () => {
  test("every step type reads into the builder and writes back unchanged", () => {
    expect(series.map((s, i) => stepFromDraft(draftFromStep(s, i)))).toEqual(series);
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

  test("the goal checkboxes are tag_added goals", () => {
    expect(goalsFromTags([TAG])).toEqual([{ type: "tag_added", tag_id: TAG }]);
    expect(tagsFromGoals([{ type: "tag_added", tag_id: TAG }, { type: "other" }])).toEqual([TAG]);
  });

  test("stored steps keep keys from their position, so the server's render and the browser's agree", () => {
    expect(series.map((s, i) => draftFromStep(s, i).key)).toEqual(series.map((_, i) => `stored-${i}`));
  });
});
