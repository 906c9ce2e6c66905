import { z } from "zod";
import { uuidField } from "@/lib/ids/uuid";

/**
 * The campaign builder's form (components/campaigns/campaign-builder.tsx): the name, the steps
 * and goals as JSON in hidden fields (checked by validateSteps in the action, lib/campaigns/steps.ts),
 * the re-enrollment checkbox, the enrollment segment, whether publishing moves the enrollments
 * inside, and which button was pressed.
 */

/** A JSON list sent by the builder in a hidden field. */
const jsonList = (label: string) =>
  z.string().transform((value, ctx) => {
    try {
      const parsed: unknown = JSON.parse(value);
      if (Array.isArray(parsed)) return parsed as unknown[];
    } catch {
      // reported below
    }
    ctx.addIssue({ code: "custom", message: `The ${label} could not be read; reload the page.` });
    return z.NEVER;
  });

export const builderForm = z.object({
  name: z.string().trim().min(1, "Name the campaign.").max(200, "Keep the name under 200 characters."),
  steps: jsonList("steps"),
  goals: jsonList("goals"),
  allow_reenrollment: z.preprocess((v) => v === "on" || v === "true" || v === true, z.boolean()),
  // the segment whose entrants are enrolled ("" none), checked by updateCampaign (400 when not the workspace's)
  enroll_segment_id: z.preprocess(
    (v) => (v === "" || v === undefined ? null : v),
    uuidField("Choose a segment of this workspace.").nullable(),
  ),
  // on publishing: move the enrollments inside to the new version (lib/campaigns/campaigns.ts)
  move_enrollments: z.preprocess((v) => v === "on" || v === "true" || v === true, z.boolean()),
  intent: z.enum(["save", "publish"]).default("save"),
});
