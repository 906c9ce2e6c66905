"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { memberAction } from "@/lib/adapters/member-action";
import { ADMIN_ROLES } from "@/lib/auth/context";
import {
  addSendingDomain,
  checkSendingDomain,
  removeSendingDomain,
} from "@/lib/email/flows/manage-sending-domain";
import { senderSettingsSchema, updateSenderSettings } from "@/lib/email/from-address";
import { addSendingDomainSchema, type SendingDomain } from "@/lib/email/sending-domains";
import { AppError } from "@/lib/errors/app-error";
import type { FormState } from "@/lib/http/form-state";
import { uuidSchema } from "@/lib/ids/uuid";

/**
 * A workspace's sending domains (docs/decisions.md, "Sending domains and warm-up"): owners and
 * admins add, check and remove them. Resend is called in `before`, outside the audited
 * transaction; the flows write the row through the service door (members hold no write grant).
 */
const forbidden = "Only owners and admins can manage sending domains.";
const after = () => revalidatePath("/settings/email");

export const addSendingDomainAction = memberAction<typeof addSendingDomainSchema, FormState, SendingDomain>(
  addSendingDomainSchema,
  async (_db, input, ctx): Promise<FormState> => {
    ctx.audit.target("sending_domain", ctx.prepared.id).change(null, { domain: ctx.prepared.domain });
    return { success: `${ctx.prepared.domain} added: create the DNS records below, then check it.` };
  },
  {
    audit: "sending_domain.added",
    roles: ADMIN_ROLES,
    forbidden,
    before: (input, ctx): Promise<SendingDomain> =>
      addSendingDomain({ workspaceId: ctx.workspaceId, domain: input.domain, region: input.region }),
    after,
  },
);

const sendingDomainId = z.object({ sendingDomainId: uuidSchema });

/** "Check now": Resend verifies the records at once; the status shown is what it then reports. */
export const checkSendingDomainAction = memberAction<typeof sendingDomainId, FormState, SendingDomain>(
  sendingDomainId,
  async (_db, _input, ctx): Promise<FormState> => {
    const domain = ctx.prepared;
    return domain.status === "verified"
      ? { success: `${domain.domain} is verified: mail can leave from it.` }
      : {
          success: `Checked ${domain.domain}: ${domain.status.replace(/_/g, " ")}. DNS changes can take a few hours.`,
        };
  },
  {
    audit: false,
    roles: ADMIN_ROLES,
    forbidden,
    args: ["sendingDomainId"],
    before: async (input, ctx) => {
      const domain = await checkSendingDomain({ workspaceId: ctx.workspaceId, ...input });
      if (!domain) throw new AppError("not_found", "Sending domain not found.");
      return domain;
    },
    after,
  },
);

export const removeSendingDomainAction = memberAction<typeof sendingDomainId, FormState, SendingDomain>(
  sendingDomainId,
  async (_db, input, ctx): Promise<FormState> => {
    ctx.audit.target("sending_domain", input.sendingDomainId).change({ domain: ctx.prepared.domain }, null);
    return { success: `${ctx.prepared.domain} removed. Mail leaves from the service's address again.` };
  },
  {
    audit: "sending_domain.removed",
    roles: ADMIN_ROLES,
    forbidden,
    args: ["sendingDomainId"],
    before: async (input, ctx) => {
      const domain = await removeSendingDomain({ workspaceId: ctx.workspaceId, ...input });
      if (!domain) throw new AppError("not_found", "Sending domain not found.");
      return domain;
    },
    after,
  },
);

/** The workspace's From on one of its verified domains (name, local part, domain). */
export const saveSenderAction = memberAction(
  senderSettingsSchema,
  async (db, input, ctx): Promise<FormState> => {
    const saved = await updateSenderSettings(db, ctx.workspaceId, input);
    ctx.audit.target("workspace", ctx.workspaceId).change(null, { ...saved });
    return {
      success: saved.email_from_local
        ? `Mail now leaves from ${saved.email_from_local}@${saved.email_from_domain}.`
        : "Sender saved: mail leaves from the service's address.",
    };
  },
  {
    audit: "email_sender.updated",
    roles: ADMIN_ROLES,
    forbidden: "Only owners and admins can change the sender.",
    after,
  },
);
