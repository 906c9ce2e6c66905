import { Resolver } from "node:dns/promises";

/** What `_dmarc.<domain>` says (RFC 7489 section 6.3), as stored on the domain and shown beside it. */
export interface DmarcLookup {
  found: boolean;
  record: string | null;
  /** the `p=` tag: none, quarantine or reject; null without a record or without the tag */
  policy: string | null;
  checked_at: string;
  /** a lookup that failed for another reason than "no such record" (a timeout, a SERVFAIL) */
  error?: string;
}

/** A TXT lookup, as `node:dns/promises` resolveTxt answers (chunks of each record); tests inject one. */
export type TxtResolver = (name: string) => Promise<string[][]>;

/**
 * The resolver a lookup uses when none is passed: the system's, waiting at most 3 s twice, so a
 * dead DNS server cannot hold a settings page or the verify job. Tests replace `resolveTxt`.
 */
export const dmarcDns: { resolveTxt: TxtResolver } = {
  resolveTxt: (name) => new Resolver({ timeout: 3000, tries: 2 }).resolveTxt(name),
};

const NO_RECORD = new Set(["ENOTFOUND", "ENODATA", "ENONAME"]);

/** The policy of a DMARC record: the value of its `p` tag, lowercased. */
export function dmarcPolicy(record: string): string | null {
  for (const tag of record.split(";")) {
    const [name, value] = tag.split("=").map((part) => part.trim());
    if (name?.toLowerCase() === "p" && value) return value.toLowerCase();
  }
  return null;
}

/**
 * Looks up `_dmarc.<domain>`: the first TXT record starting `v=DMARC1` (RFC 7489 6.6.3: others are
 * ignored), its chunks joined. No record is an answer (found: false), not an error.
 */
export async function lookupDmarc(
  domain: string,
  resolve: TxtResolver = dmarcDns.resolveTxt,
  now: Date = new Date(),
): Promise<DmarcLookup> {
  const checked_at = now.toISOString();
  let answers: string[][];
  try {
    answers = await resolve(`_dmarc.${domain}`);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code && NO_RECORD.has(code)) return { found: false, record: null, policy: null, checked_at };
    return { found: false, record: null, policy: null, checked_at, error: code ?? "lookup failed" };
  }
  const record = answers.map((chunks) => chunks.join("")).find((r) => /^v=DMARC1\s*(;|$)/i.test(r.trim()));
  if (!record) return { found: false, record: null, policy: null, checked_at };
  return { found: true, record: record.trim(), policy: dmarcPolicy(record), checked_at };
}
