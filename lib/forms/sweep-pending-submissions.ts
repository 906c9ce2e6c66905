import type { Db } from "@/lib/db/doors";

/**
 * Pending double opt-in submissions whose link expired more than 7 days ago (the rule staging
 * a new one applies, kept a week so a late click is told the link expired), 10,000 a call.
 */
export async function sweepPendingSubmissions(db: Db): Promise<number> {
  const rows = await db`
    delete from public.pending_form_submissions p
    where p.ctid = any (array(
      select old.ctid from public.pending_form_submissions old
      where old.expires_at < now() - interval '7 days' limit 10000))`;
  return rows.count;
}
