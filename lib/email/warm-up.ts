import { asService, type Db } from "@/lib/db/doors";
import { enqueue } from "@/lib/jobs/enqueue";
import type { Sender } from "./sender";

/**
 * A new sending domain's warm-up (docs/decisions.md, "Sending domains and warm-up"; configuration in
 * docs/configuration.md): on the n-th UTC day on which a domain sends broadcasts (n = 0, 1, …) its
 * broadcasts may send SENDING_WARMUP_START · 2^n emails; once that reaches
 * SENDING_WARMUP_UNCAPPED_AT the domain is uncapped. Days without sends do not count: a domain
 * verified and left idle for a month starts at the start. The count is per domain (one workspace's)
 * per day, in `sending_domain_days`, reserved under its row lock before a batch is claimed, so
 * every run and every worker shares one cap.
 */
export interface WarmupSchedule {
  start: number;
  uncappedAt: number;
}

export function warmupSchedule(): WarmupSchedule {
  const number = (value: string | undefined, fallback: number) => {
    const n = Number(value);
    return value !== undefined && value !== "" && Number.isFinite(n) && n >= 0 ? Math.floor(n) : fallback;
  };
  return {
    start: number(process.env.SENDING_WARMUP_START, 50),
    uncappedAt: number(process.env.SENDING_WARMUP_UNCAPPED_AT, 50_000),
  };
}

/** The cap of a domain's n-th day of sending; null: no cap (warm-up off, or over). */
export function warmupCap(daysSent: number, schedule: WarmupSchedule = warmupSchedule()): number | null {
  if (schedule.start === 0) return null;
  const cap = schedule.start * 2 ** daysSent;
  return cap >= schedule.uncappedAt ? null : cap;
}

/** The UTC day of `now`, as a date. */
export const utcDay = (now: Date) => now.toISOString().slice(0, 10);

/** The start of the UTC day after `now`: when a capped broadcast carries on. */
export function nextUtcDay(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
}

/**
 * Takes up to `wanted` sends from today's cap of the sender's domain: how many may be claimed
 * (0: the day's cap is spent), or null when the sender is not capped (the platform's address, or a
 * warmed-up domain). The day comes from this process's clock.
 */
export async function reserveWarmup(
  db: Db,
  input: { workspaceId: string; sender: Sender; wanted: number; now?: Date },
): Promise<number | null> {
  const domainId = input.sender.sendingDomainId;
  if (!domainId) return null;
  const day = utcDay(input.now ?? new Date());
  return asService(db, async () => {
    await db`insert into public.sending_domain_days (sending_domain_id, workspace_id, day)
             values (${domainId}, ${input.workspaceId}, ${day}) on conflict do nothing`;
    const [row] = await db<{ sent: number; days_sent: number }[]>`
      select t.sent,
             (select count(*)::int from public.sending_domain_days p
               where p.sending_domain_id = t.sending_domain_id and p.day < t.day and p.sent > 0) as days_sent
      from public.sending_domain_days t
      where t.sending_domain_id = ${domainId} and t.day = ${day}
      for update of t`;
    const cap = warmupCap(row.days_sent);
    if (cap === null) return null;
    const granted = Math.max(0, Math.min(input.wanted, cap - row.sent));
    if (granted > 0)
      await db`update public.sending_domain_days set sent = sent + ${granted}
               where sending_domain_id = ${domainId} and day = ${day}`;
    return granted;
  });
}

/** A waiting broadcast's next run claimed a batch: its page no longer says it waits. */
export async function endWarmupWait(db: Db, input: { workspaceId: string; broadcastId: string }) {
  await asService(
    db,
    () => db`update public.broadcasts set warmup_until = null
             where id = ${input.broadcastId} and workspace_id = ${input.workspaceId} and warmup_until is not null`,
  );
}

/** Gives back what a reservation did not use (a claim of fewer rows: skipped contacts, the audience's end). */
export async function returnWarmup(
  db: Db,
  input: { sender: Sender; unused: number; now?: Date },
): Promise<void> {
  if (!input.sender.sendingDomainId || input.unused <= 0) return;
  await asService(
    db,
    () => db`update public.sending_domain_days set sent = greatest(0, sent - ${input.unused})
             where sending_domain_id = ${input.sender.sendingDomainId!} and day = ${utcDay(input.now ?? new Date())}`,
  );
}

/**
 * A broadcast whose domain spent today's cap carries on at the start of the next UTC day: its job
 * ends and another is queued for then (one per broadcast and day: a second run that reaches the cap
 * queues nothing more). The broadcast stays 'sending', `warmup_until` saying until when for its page;
 * its rest is claimed then, not failed.
 */
export async function waitForNextWarmupDay(
  db: Db,
  input: { workspaceId: string; broadcastId: string },
  now: Date,
): Promise<{ waitingUntil: string }> {
  const startAfter = nextUtcDay(now);
  await asService(
    db,
    () => db`update public.broadcasts set warmup_until = ${startAfter}
             where id = ${input.broadcastId} and workspace_id = ${input.workspaceId}`,
  );
  await enqueue(db, {
    queue: "broadcast",
    data: { workspaceId: input.workspaceId, broadcastId: input.broadcastId },
    options: { startAfter, singletonKey: `warm-up:${input.broadcastId}:${utcDay(startAfter)}` },
  });
  return { waitingUntil: startAfter.toISOString() };
}
