import type { DomainRecords, DomainRegion } from "resend";
import type { ProviderAnswer } from "./flows/pace-provider";
import { sendThroughResend } from "./resend-client";

/**
 * Resend's Domains API (resend.com/docs/api-reference/domains): POST /domains, GET /domains/{id},
 * POST /domains/{id}/verify, DELETE /domains/{id}, through the SDK the mail already uses (it reads
 * RESEND_BASE_URL, so the test fake answers in tests) and through the key's pacer: these requests
 * spend the same team rate as the mail (docs/decisions.md, "One pacer per Resend key").
 * Each answers null without RESEND_API_KEY.
 */

/** A domain as Resend answers it; `records` as Resend lists them (record, name, type, ttl, status, value, priority). */
export interface ProviderDomain {
  id: string;
  name: string;
  status: string;
  region: string;
  records: DomainRecords[];
}

export const DOMAIN_REGIONS = ["us-east-1", "eu-west-1", "sa-east-1", "ap-northeast-1"] as const;

export function createProviderDomain(
  name: string,
  region: DomainRegion,
): Promise<ProviderAnswer<ProviderDomain> | null> {
  return sendThroughResend((resend) => resend.domains.create({ name, region }));
}

export function getProviderDomain(id: string): Promise<ProviderAnswer<ProviderDomain> | null> {
  return sendThroughResend((resend) => resend.domains.get(id));
}

/** Asks Resend to check the DNS records now; the outcome is read later with getProviderDomain. */
export function verifyProviderDomain(id: string): Promise<ProviderAnswer<{ id: string }> | null> {
  return sendThroughResend((resend) => resend.domains.verify(id));
}

export function removeProviderDomain(
  id: string,
): Promise<ProviderAnswer<{ id: string; deleted: boolean }> | null> {
  return sendThroughResend((resend) => resend.domains.remove(id));
}
