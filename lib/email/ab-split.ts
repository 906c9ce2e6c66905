import { createHash } from "node:crypto";
import type postgres from "postgres";
import type { Db } from "@/lib/db/doors";

/**
 * The deterministic split of an A/B broadcast (docs/decisions.md, "A/B tests of broadcasts"): the
 * first 6 bytes of sha256("<contact id>:<broadcast id>"), as an unsigned number, modulo 10,000 is
 * the contact's bucket. A bucket below share × 100 is in the test group; its variant is the
 * bucket modulo the number of variants. The same contact always lands in the same place for the
 * same broadcast, and a different broadcast reshuffles everyone. 48 bits, not 64: Postgres reads
 * them as a positive bigint, so the claim's SQL (abBucketSql) computes the very same bucket.
 */
export const AB_BUCKETS = 10_000;

export function abBucket(contactId: string, broadcastId: string): number {
  const digest = createHash("sha256").update(`${contactId}:${broadcastId}`).digest();
  return digest.readUIntBE(0, 6) % AB_BUCKETS;
}

/** Whether the contact is in the test share (10–50 percent), and which variant it gets there. */
export function abAssignment(
  contactId: string,
  broadcastId: string,
  sharePercent: number,
  variants: number,
): { inTest: boolean; variant: number | null } {
  const bucket = abBucket(contactId, broadcastId);
  const inTest = bucket < sharePercent * (AB_BUCKETS / 100);
  return { inTest, variant: inTest ? bucket % variants : null };
}

/** abBucket in SQL, for a contact id column and the broadcast's id (the claim's set-based insert). */
export function abBucketSql(db: Db, contactId: postgres.PendingQuery<postgres.Row[]>, broadcastId: string) {
  return db`((('x' || substr(encode(sha256(convert_to(${contactId}::text || ':' || ${broadcastId}::text, 'UTF8')), 'hex'), 1, 12))::bit(48)::bigint % ${AB_BUCKETS}))::int`;
}
