"use server";

import { headers } from "next/headers";
import { z } from "zod";
import { publicAction } from "@/lib/adapters/public-action";
import { savePreferences } from "@/lib/consent/topic-consent";
import { withService } from "@/lib/db/doors";
import type { FormState } from "@/lib/http/form-state";
import { clientIp } from "@/lib/http/client-ip";

/**
 * The preference centre's save (docs/decisions.md, "Subscription topics"). The contact id is
 * the link's, as for the unsubscribe link itself (spec 4.7); the topics are resolved in that
 * contact's workspace, never taken on trust; joining one needs the link's signature (`sig`). No page refresh: the page unsubscribes on opening.
 */
export const savePreferencesAction = publicAction(
  "save email preferences",
  z.object({
    contactId: z.string(),
    topics: z.array(z.string()).max(100).default([]),
    everything: z.string().optional(),
    sig: z.string().max(100).optional(),
  }),
  async (input): Promise<FormState> => {
    const topicIds = input.everything ? [] : input.topics;
    const ip = clientIp(await headers());
    const result = await withService((db) =>
      savePreferences(db, { contactId: input.contactId, topicIds, ip, signature: input.sig }),
    );
    if ("error" in result) throw result.error;
    return {
      success: topicIds.length
        ? "Your email preferences are saved."
        : "You are unsubscribed from everything. You will no longer receive marketing email from us.",
    };
  },
);
