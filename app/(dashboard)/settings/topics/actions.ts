"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { memberAction } from "@/lib/adapters/member-action";
import { ADMIN_ROLES } from "@/lib/auth/context";
import { createTopic, topicSchema, updateTopic } from "@/lib/consent/topics";
import { unwrap } from "@/lib/errors/app-error";
import type { FormState } from "@/lib/http/form-state";
import { uuidField } from "@/lib/ids/uuid";

/**
 * Subscription topics (docs/decisions.md, "Subscription topics"): owners and admins, through the
 * service door (members only read topics; the first topic also moves every subscribed contact).
 */
const admins = {
  roles: ADMIN_ROLES,
  forbidden: "Only owners and admins can manage topics.",
  door: "service",
} as const;
const refresh = () => revalidatePath("/settings/topics");

/** The form's checkbox as the schema's boolean. */
const withCheckbox = <S extends z.ZodType>(schema: S) =>
  z.preprocess((raw) => {
    const form = (raw ?? {}) as Record<string, unknown>;
    return { ...form, defaultOn: form.defaultOn === "on" || form.defaultOn === true };
  }, schema);
const topicForm = withCheckbox(topicSchema);
// the key names the topic in links and the API: it is set once
const topicEditForm = withCheckbox(topicSchema.omit({ key: true }));

export const createTopicAction = memberAction(
  topicForm,
  async (db, input, ctx): Promise<FormState> => {
    const { id } = unwrap(await createTopic(db, { ...input, workspaceId: ctx.workspaceId }));
    ctx.audit.target("topic", id).change(null, input);
    return { success: `The topic “${input.name}” is added.` };
  },
  { ...admins, audit: "topic.created", after: refresh },
);

export const updateTopicAction = memberAction(
  z.intersection(z.object({ topicId: uuidField("Topic not found.") }), topicEditForm),
  async (db, { topicId, ...input }, ctx): Promise<FormState> => {
    unwrap(await updateTopic(db, { ...input, topicId, workspaceId: ctx.workspaceId }));
    ctx.audit.target("topic", topicId).change(null, input);
    return { success: "Topic saved." };
  },
  { ...admins, audit: "topic.updated", args: ["topicId"], after: refresh },
);
