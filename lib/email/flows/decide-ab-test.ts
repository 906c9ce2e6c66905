import { withService } from "@/lib/db/doors";
import { enqueue } from "@/lib/jobs/enqueue";
import { done, retry, type JobOutcome } from "@/lib/jobs/outcome";
import { pickAbWinner, type AbMetric } from "../ab-decision";
import { abVariantNumbers } from "../ab-test";

type Decision = { decided: false; why: string } | { decided: true; winner: number; note: string };

/**
 * An A/B broadcast's decision (docs/decisions.md, "A/B tests of broadcasts"), in one transaction
 * under the broadcast's row lock: once its decision time has come and the test share's emails have
 * all left, the variants' numbers pick the winner (lib/email/ab-decision.ts), the decision is
 * recorded, and the broadcast job is enqueued to send the winner to the rest of the audience
 * through the same claim as any broadcast. Exactly once: a decided broadcast is not decided again
 * (a second job, a retry after a crash), and the unique (broadcast_id, contact_id) key keeps
 * everyone of the test share from getting the winner too. A paused broadcast is decided and sends
 * the rest when resumed (or, with test emails still waiting, is decided when resumed); a cancelled
 * one is left alone. `now` is the clock the decision time is compared with (the job's own; tests
 * move it).
 */
export async function decideAbTest(
  input: { workspaceId: string; broadcastId: string },
  now: Date = new Date(),
): Promise<JobOutcome<Decision>> {
  return withService(async (db) => {
    const [b] = await db<
      { status: string; metric: AbMetric | null; decide_at: Date | null; decided_at: Date | null }[]
    >`
      select status, ab_winner_metric as metric, ab_decide_at as decide_at, ab_decided_at as decided_at
      from public.broadcasts
      where id = ${input.broadcastId} and workspace_id = ${input.workspaceId}
      for update`;
    if (!b || !b.metric) return done<Decision>({ decided: false, why: "no A/B test" });
    if (b.decided_at) return done<Decision>({ decided: false, why: "already decided" });
    if (!["sending", "paused"].includes(b.status))
      return done<Decision>({ decided: false, why: `the broadcast is ${b.status}` });
    if (!b.decide_at || new Date(b.decide_at).getTime() > now.getTime())
      return retry("retry_later", "The test share is not yet sent, or its decision time has not come.");
    const [waiting] = await db`
      select 1 from public.email_sends
      where broadcast_id = ${input.broadcastId} and workspace_id = ${input.workspaceId} and status = 'queued'
      limit 1`;
    if (waiting) {
      // a paused broadcast's waiting emails leave when it is resumed, and that run enqueues the
      // decision again (lib/email/ab-claim.ts, redecideIfDue)
      if (b.status === "paused")
        return done<Decision>({ decided: false, why: "paused with emails of the test waiting" });
      return retry("retry_later", "The test share's last emails are still on their way.");
    }

    const { winner, note } = pickAbWinner(await abVariantNumbers(db, input), b.metric);
    // the rest of the audience is claimed from its start again: the test share's contacts have
    // their rows, so the claim passes over them (docs/decisions.md, "Broadcasts")
    await db`
      update public.broadcasts
      set ab_winner_variant = ${winner}, ab_decided_at = now(), ab_decision_note = ${note}, claim_cursor = null
      where id = ${input.broadcastId} and workspace_id = ${input.workspaceId}`;
    if (b.status === "sending") await enqueue(db, { queue: "broadcast", data: input });
    return done<Decision>({ decided: true, winner, note });
  });
}
