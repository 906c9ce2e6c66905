import { withService } from "@/lib/db/doors";
import { senderFor, type Sender } from "@/lib/email/sender";
import { deliverBatch, recordBroadcastDelivery } from "@/lib/email/send-broadcast";
import { done, retry, type JobOutcome } from "@/lib/jobs/outcome";
import { claimCampaignChunks, releaseCampaignChunk, type CampaignChunk } from "../campaign-delivery";

/** Chunks delivered side by side, as a broadcast's run does (the pacer keeps the team's rate). */
const PARALLEL_CALLS = 4;

/**
 * The 'campaign-delivery' job (docs/decisions.md, "Campaign emails in batches"): the queued emails of
 * every campaign's send steps, four chunks of up to 100 at a time, each one batch call to Resend
 * under its chunk's key, until none is left. Claim, call and record are three steps: the chunks are
 * leased in a short transaction, Resend is called outside any, and what it took is recorded in
 * another (only rows still 'queued'). A chunk the provider did not take is released and the job
 * answers `retry` (backoff); a refusal that another attempt cannot change records its rows 'failed'
 * with the reason. Past the last attempt nothing is failed: the rows stay queued and the campaign
 * sweep starts the job again (lib/campaigns/flows/run-campaign-sweep.ts).
 */
export async function deliverCampaignEmails(
  signal?: AbortSignal,
): Promise<JobOutcome<{ chunks: number; sent: number }>> {
  const senders = new Map<string, Promise<Sender>>();
  const senderOf = (workspaceId: string) => {
    let s = senders.get(workspaceId);
    if (!s) senders.set(workspaceId, (s = withService((db) => senderFor(db, workspaceId))));
    return s;
  };
  let chunks = 0;
  let sent = 0;
  for (;;) {
    if (signal?.aborted)
      return retry("unavailable", "The worker stopped between chunks; the delivery carries on when retried.");
    const claimed = await withService((db) => claimCampaignChunks(db, PARALLEL_CALLS));
    if (claimed.length === 0) return done({ chunks, sent });
    const deliveries = await Promise.all(claimed.map((chunk) => deliverChunk(chunk, senderOf, signal)));
    const untaken = deliveries.filter(({ delivery }) => "error" in delivery && !delivery.permanent);
    await withService(async (db) => {
      for (const { chunk, delivery } of deliveries) {
        if ("error" in delivery && !delivery.permanent) await releaseCampaignChunk(db, chunk.key);
        else await recordBroadcastDelivery(db, delivery);
      }
    });
    chunks += deliveries.length - untaken.length;
    sent += deliveries.reduce(
      (n, { delivery }) => n + ("providerIds" in delivery ? delivery.ids.length : 0),
      0,
    );
    const waiting = untaken[0]?.delivery;
    if (waiting && "error" in waiting) return retry("provider_failed", `Resend: ${waiting.error}`);
  }
}

async function deliverChunk(
  chunk: CampaignChunk,
  senderOf: (workspaceId: string) => Promise<Sender>,
  signal?: AbortSignal,
) {
  const emails = await Promise.all(
    chunk.rows.map(async (row) => ({ id: row.id, sender: await senderOf(row.workspace_id), email: row })),
  );
  return { chunk, delivery: await deliverBatch(emails, chunk.key, signal) };
}
