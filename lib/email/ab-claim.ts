import type { Db } from "@/lib/db/doors";
import { enqueue } from "@/lib/jobs/enqueue";
import type { AbVariant } from "./ab-test";

/**
 * Where an A/B broadcast is (docs/decisions.md, "A/B tests of broadcasts"): 'test' until its
 * decision (only the test share is claimed, each contact with its bucket's variant), then 'rest'
 * (everyone else of the audience, with the winner). Null for a broadcast without a test.
 */
export function abSplit(ab: {
  ab_test_share: number | null;
  ab_decided_at: Date | null;
  ab_winner_variant: number | null;
  variants: AbVariant[];
}) {
  if (ab.ab_test_share === null || ab.variants.length < 2) return null;
  return ab.ab_decided_at === null
    ? { phase: "test" as const, share: ab.ab_test_share, variants: ab.variants, winner: null }
    : {
        phase: "rest" as const,
        share: ab.ab_test_share,
        variants: ab.variants,
        winner: ab.ab_winner_variant ?? 0,
      };
}

/**
 * The test share is claimed to the end: its decision time is set once (now plus the chosen hours)
 * and the decision job enqueued for it in the same transaction; the broadcast stays 'sending'.
 */
export async function awaitAbDecision(db: Db, workspaceId: string, broadcastId: string): Promise<void> {
  const [set] = await db<{ ab_decide_at: Date }[]>`
    update public.broadcasts set ab_decide_at = now() + make_interval(hours => ab_decide_after_hours)
    where id = ${broadcastId} and ab_decide_at is null
    returning ab_decide_at`;
  if (set)
    await enqueue(db, {
      queue: "broadcast-ab-decision",
      data: { workspaceId, broadcastId },
      options: {
        startAfter: new Date(set.ab_decide_at),
        singletonKey: `broadcast-ab-decision:${broadcastId}`,
      },
    });
}
