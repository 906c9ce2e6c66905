import { withService } from "@/lib/db/doors";
import { attemptAllowed, type AuthAction } from "../rate-limits";

/** One attempt of an account action, counted in a transaction of its own (docs/decisions.md). */
export function limitAttempt(
  action: AuthAction,
  who: { ip: string | null; account?: string | null },
): Promise<boolean> {
  return withService((db) => attemptAllowed(db, action, who));
}
