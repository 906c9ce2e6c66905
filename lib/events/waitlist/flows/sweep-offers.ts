import { withService } from "@/lib/db/doors";
import { done, type JobOutcome } from "@/lib/jobs/outcome";
import { expireOffers } from "../offers";

/**
 * The 'waitlist-offers-sweep' job (docs/decisions.md, "A waitlist that fills itself"), every minute:
 * expires the offers whose time ran out and offers their seats to the next in line, a few events per
 * transaction (each under its event's lock) until none is left.
 */
export async function sweepWaitlistOffers(now?: Date): Promise<JobOutcome<{ expired: number }>> {
  let expired = 0;
  for (;;) {
    const n = await withService((db) => expireOffers(db, { now, limit: 20 }));
    expired += n;
    if (n === 0) return done({ expired });
  }
}
