import { z } from "zod";
import { asServiceForMember, type Db } from "@/lib/db/doors";
import { AppError } from "@/lib/errors/app-error";
import { HOSTNAME } from "./sending-domains";
import { displayName } from "./sender";

/**
 * A From address of the workspace's own (docs/decisions.md, "Sending domains and warm-up"): a
 * display name, a local part and a domain, allowed only on a domain the workspace verified.
 */
export interface FromAddress {
  name: string | null;
  local: string;
  domain: string;
}

/** RFC 5322's dot-atom: what a local part may be without quoting, lowercased. */
const LOCAL_PART = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;

export const fromNameSchema = z
  .string()
  .trim()
  .max(70, "Keep the sender name under 70 characters.")
  .refine(
    // no control character, quote or angle bracket: a display name cannot end the header or forge an address
    (v) => !/[\u0000-\u001f\u007f"\\<>]/.test(v),
    "Leave out quotes, backslashes, angle brackets and line breaks.",
  )
  .transform((v) => (v === "" ? null : displayName(v)));

export const fromLocalSchema = z
  .string()
  .trim()
  .toLowerCase()
  .min(1, "Enter the part before the @, such as news.")
  .max(64, "Keep the part before the @ under 64 characters.")
  .refine((v) => LOCAL_PART.test(v), "Use letters, digits and . _ - + only, such as news or hello.");

/** An address split into its local part and domain, lowercased; null when it is not one address. */
export function splitAddress(address: string): { local: string; domain: string } | null {
  const match = /^([^@\s<>",;]+)@([^@\s<>",;]+)$/.exec(address.trim().toLowerCase());
  // both parts plain ASCII as the columns' checks want (a NUL byte or a control never reaches a query)
  if (!match || !LOCAL_PART.test(match[1]) || !HOSTNAME.test(match[2]) || match[2].length > 253) return null;
  return { local: match[1], domain: match[2] };
}

/** An address split, or `invalid` beside `field` when it is not one address. */
export function fromAddressOf(address: string, field: string): { local: string; domain: string } {
  const split = splitAddress(address);
  if (!split) throw new AppError("invalid", "Enter one email address, such as news@example.org.", { field });
  return split;
}

/**
 * Refuses a From on a domain that is not one of the workspace's verified domains: `invalid` (400)
 * beside `field`, whatever the reason (an unverified domain of its own, another workspace's, one
 * never added), so the refusal says nothing about other workspaces.
 */
export async function refuseUnverifiedFrom(
  db: Db,
  workspaceId: string,
  domain: string,
  field: string,
): Promise<void> {
  const [row] = await db`
    select 1 from public.sending_domains
    where workspace_id = ${workspaceId} and domain = ${domain} and status = 'verified'`;
  if (!row)
    throw new AppError(
      "invalid",
      `${domain} is not a verified sending domain of this workspace: add it under Sending domains and verify it first.`,
      { field },
    );
}

export interface SenderSettings {
  email_from_name: string | null;
  email_from_local: string | null;
  email_from_domain: string | null;
}

export async function getSenderSettings(db: Db, workspaceId: string): Promise<SenderSettings> {
  const [row] = await db<SenderSettings[]>`
    select email_from_name, email_from_local, email_from_domain from public.workspaces where id = ${workspaceId}`;
  return row ?? { email_from_name: null, email_from_local: null, email_from_domain: null };
}

export const senderSettingsSchema = z.object({
  fromName: fromNameSchema.optional().default(""),
  /** empty: mail leaves from the platform's address (the local part and domain are cleared) */
  fromLocal: z.string().trim().optional().default(""),
  fromDomain: z
    .string()
    .trim()
    .toLowerCase()
    .refine((v) => v === "" || (v.length <= 253 && HOSTNAME.test(v)), "Choose one of your verified domains.")
    .optional()
    .default(""),
});

/**
 * Saves the workspace's From (owners and admins): the name is used only with a local part on a
 * verified domain (the platform's address keeps the workspace's name). Written through the service
 * door after the role check: members hold no grant on these columns (a PATCH could name any domain).
 */
export async function updateSenderSettings(
  db: Db,
  workspaceId: string,
  input: z.output<typeof senderSettingsSchema>,
): Promise<{
  email_from_name: string | null;
  email_from_local: string | null;
  email_from_domain: string | null;
}> {
  let local: string | null = null;
  let domain: string | null = null;
  if (input.fromLocal !== "" || input.fromDomain !== "") {
    const parsed = fromLocalSchema.safeParse(input.fromLocal);
    if (!parsed.success)
      throw new AppError("invalid", parsed.error.issues[0].message, { field: "fromLocal" });
    if (input.fromDomain === "")
      throw new AppError("invalid", "Choose one of your verified domains.", { field: "fromDomain" });
    await refuseUnverifiedFrom(db, workspaceId, input.fromDomain, "fromDomain");
    local = parsed.data;
    domain = input.fromDomain;
  }
  const [row] = await asServiceForMember(
    db,
    workspaceId,
    () => new AppError("forbidden", "Only owners and admins can change the sender."),
    () => db<
      { email_from_name: string | null; email_from_local: string | null; email_from_domain: string | null }[]
    >`
      update public.workspaces
      set email_from_name = ${input.fromName}, email_from_local = ${local}, email_from_domain = ${domain}
      where id = ${workspaceId}
      returning email_from_name, email_from_local, email_from_domain`,
    ["owner", "admin"],
  );
  return row;
}

/** A reply-to address, optional: one address with no line break, lowercased; empty is none. */
export const replyToSchema = z
  .string()
  .trim()
  .max(254, "Keep the reply-to address under 254 characters.")
  .refine(
    (v) => v === "" || (z.email().safeParse(v).success && !/[\s<>",;]/.test(v)),
    "Enter an email address, such as hello@example.org, or leave it empty.",
  )
  .transform((v) => (v === "" ? null : v.toLowerCase()));

/** A broadcast's own sender as its columns hold it: each null falls back to the workspace's. */
export interface BroadcastSender {
  fromName: string | null;
  fromLocal: string | null;
  fromDomain: string | null;
  replyTo: string | null;
}

/**
 * A broadcast's own From (optional; docs/decisions.md, "Sending domains and warm-up"): the address
 * must be on a verified domain of the workspace, else `invalid` beside `fields.address` (or
 * `fields.domain` when the composer's domain select names it) and nothing is stored; the name goes
 * only with an address (the platform's address keeps the workspace's name). Checked before the
 * broadcast is written, so a refusal stores nothing.
 */
export async function broadcastSenderOf(
  db: Db,
  workspaceId: string,
  input: {
    name: string | null;
    local: string;
    domain: string;
    replyTo: string | null;
    fields: { name: string; local: string; domain: string };
  },
): Promise<BroadcastSender> {
  if (input.local === "" && input.domain === "") {
    if (input.name)
      throw new AppError("invalid", "A sender name goes with a From address on your verified domain.", {
        field: input.fields.name,
      });
    return { fromName: null, fromLocal: null, fromDomain: null, replyTo: input.replyTo };
  }
  const local = fromLocalSchema.safeParse(input.local);
  if (!local.success)
    throw new AppError("invalid", local.error.issues[0].message, { field: input.fields.local });
  const domain = input.domain.trim().toLowerCase();
  if (domain === "" || domain.length > 253 || !HOSTNAME.test(domain))
    throw new AppError("invalid", "Choose one of your verified domains.", { field: input.fields.domain });
  await refuseUnverifiedFrom(db, workspaceId, domain, input.fields.domain);
  return { fromName: input.name, fromLocal: local.data, fromDomain: domain, replyTo: input.replyTo };
}
