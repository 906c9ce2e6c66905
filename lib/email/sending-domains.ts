import { isIP } from "node:net";
import { z } from "zod";
import { asService, type Db } from "@/lib/db/doors";
import { AppError } from "@/lib/errors/app-error";
import { isUuid } from "@/lib/ids/uuid";
import type { DmarcLookup } from "./dmarc";
import { DOMAIN_REGIONS, type ProviderDomain } from "./resend-domains";
import { emailFrom } from "./resend-client";

/**
 * A workspace's own sending domains (docs/decisions.md, "Sending domains and warm-up"): the rows,
 * read by members through RLS and written here through the service door once the caller's role is
 * checked by the adapter. DESIGN section 9: sending_domains (workspace_id, domain, status).
 */

/** A domain's status as Resend's Domains API names it. */
export type SendingDomainStatus =
  | "not_started"
  | "pending"
  | "verified"
  | "partially_verified"
  | "partially_failed"
  | "failed"
  | "temporary_failure";

export interface DnsRecord {
  record: string;
  name: string;
  type: string;
  ttl: string;
  status: string;
  value: string;
  priority?: number;
}

export interface SendingDomain {
  id: string;
  workspace_id: string;
  domain: string;
  status: SendingDomainStatus;
  provider_domain_id: string | null;
  records: DnsRecord[];
  region: string;
  created_at: Date;
  verified_at: Date | null;
  last_checked_at: Date | null;
  dmarc: DmarcLookup | null;
}

export const HOSTNAME = /^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]([a-z0-9-]{0,61}[a-z0-9])?$/;

/** The platform's own domain (EMAIL_FROM's): no workspace may claim it. */
function platformDomain(): string {
  const from = emailFrom();
  const address = /<([^<>]+)>\s*$/.exec(from)?.[1] ?? from;
  return address.split("@")[1]?.trim().toLowerCase() ?? "";
}

/** A domain as a member types it: trimmed, lowercased, without a trailing dot; a hostname, not an address. */
export const domainNameSchema = z
  .string()
  .trim()
  .toLowerCase()
  .transform((value) => value.replace(/\.$/, ""))
  .refine((value) => value.length > 0, "Enter the domain your mail should come from, such as example.org.")
  .refine((value) => !value.includes("@"), "Enter only the domain (example.org), not an email address.")
  .refine(
    (value) => !/^[a-z]+:\/\//.test(value) && !value.includes("/"),
    "Enter only the domain (example.org), without https:// or a path.",
  )
  .refine((value) => value.length <= 253, "A domain has at most 253 characters.")
  .refine(
    (value) => isIP(value) === 0 && HOSTNAME.test(value),
    "Enter a domain such as example.org or mail.example.org: letters, digits, hyphens and dots.",
  )
  .refine((value) => value !== platformDomain(), "This is the service's own domain; add a domain you own.");

export const addSendingDomainSchema = z.object({
  domain: domainNameSchema,
  region: z.enum(DOMAIN_REGIONS).default("us-east-1"),
});

const COLUMNS = (db: Db) =>
  db`id, workspace_id, domain, status, provider_domain_id, records, region, created_at, verified_at,
     last_checked_at, dmarc`;

export async function listSendingDomains(db: Db, workspaceId: string): Promise<SendingDomain[]> {
  return db<SendingDomain[]>`
    select ${COLUMNS(db)} from public.sending_domains
    where workspace_id = ${workspaceId} order by created_at, id`;
}

/** One domain of the workspace, or null (also for a malformed id). */
export async function getSendingDomain(
  db: Db,
  input: { workspaceId: string; sendingDomainId: string },
): Promise<SendingDomain | null> {
  if (!isUuid(input.sendingDomainId)) return null;
  const [row] = await db<SendingDomain[]>`
    select ${COLUMNS(db)} from public.sending_domains
    where id = ${input.sendingDomainId} and workspace_id = ${input.workspaceId}`;
  return row ?? null;
}

/**
 * Refuses a domain the workspace cannot add: one another workspace verified (`domain_taken`, 409:
 * docs/decisions.md explains why saying so leaks nothing DNS does not already publish), or one
 * it already added (`conflict`). Reads every workspace's rows: the service's.
 */
export async function refuseUnaddableDomain(db: Db, workspaceId: string, domain: string): Promise<void> {
  const [row] = await asService(
    db,
    () => db<{ own: boolean; verified_elsewhere: boolean }[]>`
      select bool_or(workspace_id = ${workspaceId}) as own,
             bool_or(workspace_id <> ${workspaceId} and status = 'verified') as verified_elsewhere
      from public.sending_domains where domain = ${domain}`,
  );
  if (row?.verified_elsewhere) throw new AppError("domain_taken", undefined, { field: "domain" });
  if (row?.own)
    throw new AppError("conflict", "This workspace has already added this domain.", { field: "domain" });
}

const recordsOf = (domain: ProviderDomain): DnsRecord[] =>
  domain.records.map((r) => ({
    record: r.record,
    name: r.name,
    type: r.type,
    ttl: String(r.ttl),
    status: r.status,
    value: r.value,
    ...("priority" in r && r.priority !== undefined ? { priority: r.priority } : {}),
  }));

/** A domain Resend created, stored; a race with another workspace's verified row is `domain_taken`. */
export async function insertSendingDomain(
  db: Db,
  input: { workspaceId: string; provider: ProviderDomain; dmarc: DmarcLookup },
): Promise<SendingDomain> {
  const p = input.provider;
  const [row] = await asService(
    db,
    () => db<SendingDomain[]>`
      insert into public.sending_domains
        (workspace_id, domain, status, provider_domain_id, records, region, last_checked_at, dmarc)
      values (${input.workspaceId}, ${p.name.toLowerCase()}, ${statusOf(p.status)}, ${p.id},
              ${db.json(recordsOf(p) as never)}, ${p.region}, now(), ${db.json(input.dmarc as never)})
      on conflict (workspace_id, domain) do nothing
      returning ${COLUMNS(db)}`,
  );
  if (!row)
    throw new AppError("conflict", "This workspace has already added this domain.", { field: "domain" });
  return row;
}

const KNOWN_STATUSES: SendingDomainStatus[] = [
  "not_started",
  "pending",
  "verified",
  "partially_verified",
  "partially_failed",
  "failed",
  "temporary_failure",
];
/** A status Resend may add later reads as pending: checked again, never taken for verified. */
const statusOf = (status: string): SendingDomainStatus =>
  KNOWN_STATUSES.includes(status as SendingDomainStatus) ? (status as SendingDomainStatus) : "pending";

/**
 * Resend's latest answer about a domain, stored. A domain another workspace verified first stays
 * unverified here ('failed'): the unique index on verified domains would refuse it anyway.
 */
export async function recordProviderDomain(
  db: Db,
  input: { sendingDomainId: string; provider: ProviderDomain; dmarc?: DmarcLookup },
): Promise<SendingDomain | null> {
  const p = input.provider;
  const status = statusOf(p.status);
  const [row] = await asService(
    db,
    () => db<SendingDomain[]>`
      update public.sending_domains d set
        status = case when ${status} = 'verified' and exists (
                        select 1 from public.sending_domains o
                        where o.domain = d.domain and o.status = 'verified' and o.id <> d.id)
                      then 'failed' else ${status} end,
        records = ${db.json(recordsOf(p) as never)},
        verified_at = case when ${status} = 'verified' then coalesce(d.verified_at, now()) end,
        last_checked_at = now(),
        dmarc = coalesce(${input.dmarc ? db.json(input.dmarc as never) : null}::jsonb, d.dmarc)
      where d.id = ${input.sendingDomainId}
      returning ${COLUMNS(db)}`,
  );
  return row ?? null;
}

/** A domain checked without an answer from Resend: only the time of the attempt moves. */
export async function touchSendingDomain(db: Db, sendingDomainId: string): Promise<void> {
  await asService(
    db,
    () => db`update public.sending_domains set last_checked_at = now() where id = ${sendingDomainId}`,
  );
}

/**
 * A removed domain: its row, and the workspace's From on it (the sender would ignore it anyway:
 * it sends only from a verified domain of the workspace).
 */
export async function deleteSendingDomain(db: Db, domain: SendingDomain): Promise<void> {
  await asService(db, async () => {
    await db`delete from public.sending_domains where id = ${domain.id} and workspace_id = ${domain.workspace_id}`;
    await db`update public.workspaces set email_from_local = null, email_from_domain = null
             where id = ${domain.workspace_id} and email_from_domain = ${domain.domain}`;
  });
}

/**
 * The verify job's sweep, least recently checked first: the domains whose status may still change
 * (not verified, not failed), and verified ones not read for a day (a record removed from DNS turns
 * a domain back from verified at Resend, and the sender stops using it).
 */
export async function dueSendingDomains(db: Db, limit = 50): Promise<SendingDomain[]> {
  return asService(
    db,
    () => db<SendingDomain[]>`
      select ${COLUMNS(db)} from public.sending_domains
      where provider_domain_id is not null
        and (status not in ('verified', 'failed')
             or (status = 'verified' and (last_checked_at is null or last_checked_at < now() - interval '1 day')))
      order by last_checked_at nulls first limit ${limit}`,
  );
}
