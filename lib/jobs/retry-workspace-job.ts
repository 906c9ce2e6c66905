import { isUuid } from "@/lib/ids/uuid";
import type { Db } from "@/lib/db/doors";
import { transactionDb } from "./boss-db";
import { producer } from "./producer";
import { JOBS_SCHEMA } from "./queues";

/**
 * The jobs page's retry button: a dead job (failed after its last attempt) of the member's workspace runs again now.
 * The job id comes from the client, so it counts only when the job carries this workspace; any
 * other id changes nothing and answers false, as an id that does not exist does. A dead
 * ticketing delivery is put back to 'failed', and a failed email to 'queued', so that the run
 * processes it.
 */
export async function retryWorkspaceJob(
  db: Db,
  input: { workspaceId: string; jobId: string },
): Promise<boolean> {
  if (!isUuid(input.jobId)) return false;
  const [job] = await db.unsafe(
    `select id, name, data from ${JOBS_SCHEMA}.job
     where id = $1 and data->>'workspaceId' = $2 and state = 'failed'`,
    [input.jobId, input.workspaceId],
  );
  if (!job) return false;
  if (job.name === "ticketing-delivery")
    await db`update public.webhook_inbox set status = 'failed'
             where id = ${job.data.inboxId} and workspace_id = ${input.workspaceId} and status = 'dead'`;
  if (job.name === "email-send")
    await db`update public.email_sends set status = 'queued', skip_reason = null
             where id = ${job.data.emailSendId} and workspace_id = ${input.workspaceId} and status = 'failed'`;
  const boss = await producer();
  await boss.retry(job.name, job.id, { db: transactionDb(db) });
  return true;
}
