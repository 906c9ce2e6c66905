"use server";

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { z } from "zod";
import { publicAction } from "@/lib/adapters/public-action";
import { withService } from "@/lib/db/doors";
import { clientIp } from "@/lib/http/client-ip";
import { uuidSchema } from "@/lib/ids/uuid";
import { confirmEmailChange, correctDetails } from "@/lib/portal/correct-details";
import {
  billingPortalFlow,
  enterPortalFlow,
  portalAct,
  requestPortalLinkFlow,
  signOutFlow,
} from "@/lib/portal/flows/portal-flows";
import { portalPath } from "@/lib/portal/portal-links";
import { portalUnsubscribe, savePortalTopics } from "@/lib/portal/portal-topics";
import { cancelPortalRsvp } from "@/lib/portal/registrations";
import { requestErasure } from "@/lib/portal/request-erasure";
import { portalDetailsSchema } from "@/lib/portal/schemas";

/**
 * The portal's forms (DESIGN.md section 9; docs/decisions.md, "Portal sessions"). Each names only the
 * workspace of its page (and the thing acted on); the contact is always the session's, read from the
 * cookie in the act's transaction (portalAct). Every act ends in a redirect with its notice, so the
 * pages work without JavaScript.
 */
const page = { workspaceId: uuidSchema, lang: z.string().max(35).optional() };

/** The sign-in page's form: the same answer for every address (requestPortalLinkFlow). */
export const requestLinkAction = publicAction(
  "portal link",
  z.object({ ...page, email: z.string().max(254).default("") }),
  async ({ workspaceId, lang, email }) => {
    const requestHeaders = await headers();
    if (!email.includes("@")) redirect(portalPath(workspaceId, "", { error: "email", lang }));
    const locale = { lang, acceptLanguage: requestHeaders.get("accept-language") };
    const result = await requestPortalLinkFlow({ workspaceId, email, ip: clientIp(requestHeaders), locale });
    const outcome = "error" in result ? { error: "tooMany" } : { sent: "1" };
    redirect(portalPath(workspaceId, "", { ...outcome, lang }));
  },
);

/** The link's page's Continue: spends the link and opens the session (never on the GET of the link). */
export const enterAction = publicAction(
  "portal enter",
  z.object({ ...page, token: z.string().max(100) }),
  async ({ workspaceId, lang, token }) => {
    const result = await enterPortalFlow({ workspaceId, token });
    if ("error" in result) redirect(portalPath(workspaceId, "/enter", { invalid: "1", lang }));
    redirect(portalPath(workspaceId, "/me", { lang }));
  },
);

export const correctDetailsAction = publicAction(
  "portal details",
  z.object({ ...page }).passthrough(),
  async (input) =>
    portalAct(input, async (db, session, ctx) => {
      const parsed = portalDetailsSchema.safeParse(input);
      if (!parsed.success) return "invalid";
      const result = await correctDetails(db, session, { details: parsed.data, ip: ctx.ip, t: ctx.t });
      if (result.emailConfirmationSent) return "emailSent";
      return result.changed.length ? "details" : "unchanged";
    }),
);

export const saveTopicsAction = publicAction(
  "portal topics",
  z.object({
    ...page,
    topics: z.array(z.string().max(100)).max(100).default([]),
    everything: z.string().optional(),
  }),
  async (input) =>
    portalAct(input, async (db, session, ctx) => {
      const topicIds = input.everything ? [] : input.topics;
      const result = await savePortalTopics(db, session, { topicIds, ip: ctx.ip });
      return "error" in result ? "topicsRefused" : "topics";
    }),
);

export const unsubscribeAction = publicAction("portal unsubscribe", z.object({ ...page }), async (input) =>
  portalAct(input, async (db, session, ctx) => {
    await portalUnsubscribe(db, session, ctx.ip);
    return "unsubscribed";
  }),
);

export const cancelRsvpAction = publicAction(
  "portal cancel rsvp",
  z.object({ ...page, registrationId: z.string().max(100) }),
  async (input) =>
    portalAct(input, async (db, session, ctx) => {
      const result = await cancelPortalRsvp(db, session, {
        registrationId: input.registrationId,
        ip: ctx.ip,
      });
      return "error" in result ? "notFound" : "rsvpCancelled";
    }),
);

export const requestErasureAction = publicAction(
  "portal erasure request",
  z.object({ ...page, confirm: z.literal("yes") }),
  async (input) =>
    portalAct(input, async (db, session, ctx) => {
      await requestErasure(db, session, ctx.ip);
      return "erasure";
    }),
);

/** "Manage payment and subscriptions": on to Stripe's customer portal for the contact's customer. */
export const openBillingAction = publicAction("portal billing", z.object({ ...page }), async (input) => {
  const outcome = await billingPortalFlow({ workspaceId: input.workspaceId, lang: input.lang ?? null });
  if (outcome === null) redirect(portalPath(input.workspaceId, "", { expired: "1", lang: input.lang }));
  if ("url" in outcome) redirect(outcome.url);
  redirect(portalPath(input.workspaceId, "/me", { done: outcome.notice, lang: input.lang }) + "#notice");
});

export const signOutAction = publicAction("portal sign out", z.object({ ...page }), async (input) => {
  await signOutFlow(input.workspaceId, clientIp(await headers()));
  redirect(portalPath(input.workspaceId, "", { signedOut: "1", lang: input.lang }));
});

/** The new address's confirmation page's Confirm: the link proves the address, no session needed. */
export const confirmEmailAction = publicAction(
  "portal confirm email",
  z.object({ ...page, token: z.string().max(100) }),
  async ({ workspaceId, lang, token }) => {
    const ip = clientIp(await headers());
    const result = await withService((db) => confirmEmailChange(db, { workspaceId, token, ip }));
    if ("error" in result) redirect(portalPath(workspaceId, "/confirm-email", { invalid: "1", lang }));
    redirect(portalPath(workspaceId, "/me", { done: "emailChanged", lang }));
  },
);
