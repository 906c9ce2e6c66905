import type { DomainRegion } from "resend";
import { withService } from "@/lib/db/doors";
import { AppError } from "@/lib/errors/app-error";
import { done, retry, type JobOutcome } from "@/lib/jobs/outcome";
import { lookupDmarc, type TxtResolver } from "../dmarc";
import {
  createProviderDomain,
  getProviderDomain,
  removeProviderDomain,
  verifyProviderDomain,
  type ProviderDomain,
} from "../resend-domains";
import type { ProviderAnswer } from "./pace-provider";
import {
  deleteSendingDomain,
  getSendingDomain,
  insertSendingDomain,
  recordProviderDomain,
  refuseUnaddableDomain,
  touchSendingDomain,
  dueSendingDomains,
  type SendingDomain,
} from "../sending-domains";

/**
 * Adding, checking and removing a workspace's sending domain (docs/decisions.md, "Sending domains
 * and warm-up"): each is a call to Resend's Domains API outside any transaction, between short
 * transactions that read and write the row. The caller (a server action for owners and admins,
 * the verify job) has checked who may; these run as the service, scoped by `workspaceId`.
 */

/** A provider answer's data, or the refusal the member sees. */
function dataOf<T>(answer: ProviderAnswer<T> | null, field?: string): T {
  if (!answer)
    throw new AppError("provider_failed", "Sending domains need the Resend API key (RESEND_API_KEY).");
  if (answer.data) return answer.data;
  const status = answer.error?.statusCode ?? null;
  // Resend refusing the name itself (a 4xx other than a rate or a timeout) is the member's to fix
  if (field && status !== null && status >= 400 && status < 500 && ![408, 429].includes(status))
    throw new AppError(
      "invalid",
      `Resend refused the domain: ${answer.error?.message ?? "no reason given"}`,
      {
        field,
      },
    );
  throw new AppError(
    "provider_failed",
    `Resend could not be reached (${answer.error?.message ?? "no answer"}).`,
  );
}

export async function addSendingDomain(
  input: { workspaceId: string; domain: string; region: DomainRegion },
  resolve?: TxtResolver,
): Promise<SendingDomain> {
  await withService((db) => refuseUnaddableDomain(db, input.workspaceId, input.domain));
  const provider = dataOf(await createProviderDomain(input.domain, input.region), "domain");
  const dmarc = await lookupDmarc(input.domain, resolve);
  try {
    return await withService((db) =>
      insertSendingDomain(db, {
        workspaceId: input.workspaceId,
        provider: { ...provider, region: input.region },
        dmarc,
      }),
    );
  } catch (error) {
    // not stored: the domain Resend made for it goes too, so adding it again starts clean
    await removeProviderDomain(provider.id);
    throw error;
  }
}

/**
 * Asks Resend to verify the domain's records now (unless it is verified) and stores what Resend
 * then says, with a fresh DMARC lookup. Null: no such domain in the workspace.
 */
export async function checkSendingDomain(
  input: { workspaceId: string; sendingDomainId: string },
  resolve?: TxtResolver,
): Promise<SendingDomain | null> {
  const domain = await withService((db) => getSendingDomain(db, input));
  if (!domain?.provider_domain_id) return domain;
  if (domain.status !== "verified") dataOf(await verifyProviderDomain(domain.provider_domain_id));
  const provider: ProviderDomain = dataOf(await getProviderDomain(domain.provider_domain_id));
  const dmarc = await lookupDmarc(domain.domain, resolve);
  return withService((db) => recordProviderDomain(db, { sendingDomainId: domain.id, provider, dmarc }));
}

/** Removes the domain from Resend (one already gone there is fine) and here. False: not the workspace's. */
export async function removeSendingDomain(input: {
  workspaceId: string;
  sendingDomainId: string;
}): Promise<SendingDomain | null> {
  const domain = await withService((db) => getSendingDomain(db, input));
  if (!domain) return null;
  if (domain.provider_domain_id) {
    const answer = await removeProviderDomain(domain.provider_domain_id);
    if (answer?.error && answer.error.statusCode !== 404) dataOf(answer);
  }
  await withService((db) => deleteSendingDomain(db, domain));
  return domain;
}

/**
 * The verify job: one domain, or the sweep (lib/email/sending-domains.ts, dueSendingDomains). A domain Resend cannot answer for now is
 * tried again at the next sweep; the job retries only when a single domain's check failed.
 */
export async function runSendingDomainCheck(
  input: { workspaceId?: string; sendingDomainId?: string },
  resolve?: TxtResolver,
): Promise<JobOutcome<{ checked: number; verified: number }>> {
  const targets =
    input.workspaceId && input.sendingDomainId
      ? [{ workspace_id: input.workspaceId, id: input.sendingDomainId }]
      : await withService((db) => dueSendingDomains(db));
  let checked = 0;
  let verified = 0;
  for (const target of targets) {
    try {
      const after = await checkSendingDomain(
        { workspaceId: target.workspace_id, sendingDomainId: target.id },
        resolve,
      );
      checked += 1;
      if (after?.status === "verified") verified += 1;
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      if (input.sendingDomainId) return retry(error.code, error.message);
      await withService((db) => touchSendingDomain(db, target.id));
    }
  }
  return done({ checked, verified });
}
