import { stripeClient } from "@/lib/payments/stripe-client";
import type { RetryOptions } from "@/lib/payments/stripe-retry";
import { setupTestDatabase } from "./db";
import { historicPurchase, historicRow, intentOf, setupStripeFake, type Connection } from "./payments";

const FAST: RetryOptions = { attempts: 3, baseDelayMs: 1 };

/**
 * The setup of a payments backfill test file (spec 4.11, 4.12): its database and fake Stripe,
 * the backfill's dependencies with fast retries, and the historic-purchase helpers bound to
 * that database. Call at the top level of a test file.
 */
export function setupBackfillTest() {
  const db = setupTestDatabase();
  const stripe = setupStripeFake();
  return {
    db,
    stripe,
    deps: () => ({ stripe: stripeClient(), retry: FAST }),
    historic: (conn: Connection, amounts: number[]) => historicPurchase(db.sql, stripe.fake, conn, amounts),
    historicRow: (workspaceId: string, externalId: string, cents?: number) =>
      historicRow(db.sql, workspaceId, externalId, cents),
    intentOf: (id: string) => intentOf(db.sql, id),
  };
}
