"use server";

import { headers } from "next/headers";
import { z } from "zod";
import { publicAction } from "@/lib/adapters/public-action";
import { savePreferences } from "@/lib/consent/topic-consent";
import { withService } from "@/lib/db/doors";
import type { FormState } from "@/lib/http/form-state";
import { clientIp } from "@/lib/http/client-ip";
import { localizeError } from "@/lib/i18n/localize-error";
import { recipientLocale } from "@/lib/i18n/recipient-locale";
import { translator } from "@/lib/i18n/translator";

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
    lang: z.string().max(35).optional(),
  }),
  async (input): Promise<FormState> => {
    const topicIds = input.everything ? [] : input.topics;
    const requestHeaders = await headers();
    const ip = clientIp(requestHeaders);
    // the answer in the page's language (docs/decisions.md, "Recipient languages")
    const [result, locale] = await withService(async (db) => [
      await savePreferences(db, { contactId: input.contactId, topicIds, ip, signature: input.sig }),
      await recipientLocale(db, {
        contactId: input.contactId,
        lang: input.lang,
        acceptLanguage: requestHeaders.get("accept-language"),
      }),
    ]);
    const t = translator(locale);
    if ("error" in result) throw localizeError(result.error, t);
    return { success: t.t(topicIds.length ? "preferences.saved" : "preferences.unsubscribedAll") };
  },
);
