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

/**
 * A run of a test whose decision time has passed undecided (its job ended while the broadcast was
 * paused, or gave up waiting for the test's last emails): the decision job is enqueued again, to
 * run now. Deciding twice is impossible (decideAbTest), and the singleton key keeps one waiting.
 */
export async function redecideIfDue(
  db: Db,
  input: { workspaceId: string; broadcastId: string; decideAt: Date },
): Promise<void> {
  if (new Date(input.decideAt).getTime() > Date.now()) return;
  await enqueue(db, {
    queue: "broadcast-ab-decision",
    data: { workspaceId: input.workspaceId, broadcastId: input.broadcastId },
    options: { singletonKey: `broadcast-ab-decision:${input.broadcastId}` },
  });
}
