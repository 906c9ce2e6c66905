import { z } from "zod";
import type { Db } from "@/lib/db/doors";
import { MAX_TICKET_LENGTH } from "./ticket-token";
import { checkInTicket, type CheckIn } from "./check-in";

/**
 * The scanner page's sync (docs/decisions.md, "One check-in per registration"): the scans a
 * device kept while offline, or one scan just made, each with the time it was scanned. Each is
 * answered on its own (a refused scan does not undo the others): checked in, already checked in
 * (with the first check-in: an earlier scan of another device wins), or refused, in words.
 */
export const scanBatchSchema = z.object({
  device_id: z.string().trim().min(1).max(100),
  scans: z
    .array(
      z.object({
        id: z.string().min(1).max(64),
        ticket: z.string().min(1).max(MAX_TICKET_LENGTH),
        scanned_at: z.iso.datetime({ offset: true }),
      }),
    )
    .min(1)
    .max(200),
});

export type ScanBatch = z.output<typeof scanBatchSchema>;

/** The request body as a batch, or null when it is not JSON or not a batch. */
export function parseScanBatch(text: string): ScanBatch | null {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  const batch = scanBatchSchema.safeParse(json);
  return batch.success ? batch.data : null;
}

export type ScanOutcome =
  | { id: string; status: "checked_in"; check_in: CheckInView }
  | { id: string; status: "already_checked_in"; message: string; check_in: CheckInView }
  | { id: string; status: "refused"; code: string; message: string };

export interface CheckInView {
  registration_id: string;
  checked_in_at: string;
  by: string | null;
  device_id: string | null;
}

const view = (c: CheckIn): CheckInView => ({
  registration_id: c.registration_id,
  checked_in_at: c.checked_in_at.toISOString(),
  by: c.checked_in_by_label,
  device_id: c.device_id,
});

export async function syncScans(
  db: Db,
  input: { workspaceId: string; eventId: string; userId: string; label: string | null; batch: ScanBatch },
): Promise<ScanOutcome[]> {
  // oldest first: of two scans of one ticket in one batch, the first holds the check-in
  const scans = [...input.batch.scans].sort((a, b) => Date.parse(a.scanned_at) - Date.parse(b.scanned_at));
  const outcomes: ScanOutcome[] = [];
  for (const scan of scans) {
    const result = await checkInTicket(db, {
      workspaceId: input.workspaceId,
      eventId: input.eventId,
      ticket: scan.ticket,
      scannedAt: new Date(scan.scanned_at),
      by: { userId: input.userId, label: input.label, deviceId: input.batch.device_id, source: "scanner" },
    });
    if ("data" in result)
      outcomes.push({ id: scan.id, status: "checked_in", check_in: view(result.data.checkIn) });
    else if (result.error.code === "already_checked_in")
      outcomes.push({
        id: scan.id,
        status: "already_checked_in",
        message: result.error.message,
        check_in: view(result.error.details!.check_in as CheckIn),
      });
    else
      outcomes.push({
        id: scan.id,
        status: "refused",
        code: result.error.code,
        message: result.error.message,
      });
  }
  return outcomes;
}
