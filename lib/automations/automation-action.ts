import { z } from "zod";
import { uuidSchema } from "@/lib/ids/uuid";

/**
 * An automation's action as the dashboard adds it (spec 6.2 names enrolling in a campaign
 * and adding a tag; a follow-up task is the third action fire-trigger knows). A tag or a
 * campaign is chosen from the workspace's, or named to be created.
 */
const name = (what: string) =>
  z.string().trim().max(100, `Keep the ${what} name under 100 characters.`).default("");
const id = z.union([uuidSchema, z.literal("")]).default("");

export const automationActionSchema = z
  .discriminatedUnion("action_type", [
    z.object({ action_type: z.literal("add_tag"), tag_id: id, new_tag: name("tag") }),
    z.object({ action_type: z.literal("enroll_campaign"), campaign_id: id, new_campaign: name("campaign") }),
    z.object({
      action_type: z.literal("create_task"),
      task_title: z
        .string()
        .trim()
        .min(1, "Give the task a title.")
        .max(200, "Keep the title under 200 characters."),
      due_in_days: z.coerce
        .number({ error: "Enter a number of days." })
        .int("Enter a whole number of days.")
        .min(0, "Use 0 to 365 days.")
        .max(365, "Use 0 to 365 days."),
    }),
  ])
  .superRefine((action, ctx) => {
    if (action.action_type === "add_tag" && !action.tag_id && !action.new_tag)
      ctx.addIssue({ code: "custom", path: ["tag_id"], message: "Choose a tag or name a new one." });
    if (action.action_type === "enroll_campaign" && !action.campaign_id && !action.new_campaign)
      ctx.addIssue({
        code: "custom",
        path: ["campaign_id"],
        message: "Choose a campaign or name a new one.",
      });
  });

export type AutomationAction = z.output<typeof automationActionSchema>;

/**
 * The segment an automation keeps to (docs/decisions.md, "Segments"): its action runs only for
 * contacts in the segment when it fires. Blank: every contact.
 */
export const automationSegmentSchema = z.object({ segment_id: id });
