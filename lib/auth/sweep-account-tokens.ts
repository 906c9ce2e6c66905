import type { Db } from "@/lib/db/doors";

/**
 * Account links a day past their expiry are deleted, a bounded batch at a time, whenever a
 * new link is issued: a pending sign-up keeps a password hash, which should not outlive
 * its link. (Spent sign-up links drop theirs at once: confirmSignUp empties `data`.)
 */
export async function sweepAccountTokens(db: Db, batch = 100): Promise<void> {
  await db`
    delete from public.account_tokens t
    where t.id = any (array(
      select old.id from public.account_tokens old
      where old.expires_at < now() - interval '1 day'
      order by old.expires_at
      limit ${batch}))`;
}
