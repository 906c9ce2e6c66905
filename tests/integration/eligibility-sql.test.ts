import { describe, expect, test } from "vitest";
import { withUser } from "@/lib/db/doors";
import { ineligibilityReason } from "@/lib/consent/eligibility";
import type { SuppressionReason } from "@/lib/consent/email-status";
import { marketingSkipReasonSql } from "@/lib/email/broadcast-audience";
import { setupTestDatabase } from "../helpers/db";
import { createContact, createWorkspace } from "../helpers/factories";

const db = setupTestDatabase();
const REASONS: SuppressionReason[] = ["bounce", "complaint", "unsubscribe", "manual"];

describe("8.3 one rule, two spellings", () => {
  test("8.3: the broadcast preview's SQL gives the same marketing answer as ineligibilityReason for every state", async () => {
    const ws = await createWorkspace(db.sql);
    const expected = new Map<string, string | null>();
    for (const is_subscribed of [true, false])
      for (const unsubscribed of [true, false])
        for (let mask = 0; mask < 16; mask++) {
          const suppressions = REASONS.filter((_, i) => mask & (1 << i));
          const unsubscribed_at = unsubscribed ? new Date() : null;
          const c = await createContact(db.sql, ws.id, { is_subscribed, unsubscribed_at });
          for (const reason of suppressions)
            await db.sql`insert into contact_suppressions (contact_id, reason) values (${c.id}, ${reason})`;
          expected.set(
            c.id,
            ineligibilityReason("marketing", { is_subscribed, unsubscribed_at, suppressions }),
          );
        }
    const rows = await withUser(
      ws.owner.claims,
      (tx) =>
        tx`select c.id, ${marketingSkipReasonSql(tx)} as reason from public.contacts c where c.workspace_id = ${ws.id}`,
    );
    expect(rows).toHaveLength(64);
    for (const row of rows) expect([row.id, row.reason]).toEqual([row.id, expected.get(row.id)]);
  });
});
