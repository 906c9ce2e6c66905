import { after } from "next/server";
import { log } from "@/lib/observability/log";

/**
 * Runs `work` after the answer is sent (Next's `after`). Sign-up and reset answer the same
 * text whether or not the address has an account; doing their work (a bcrypt hash, a row,
 * an email through Resend) after answering also makes them take the same time, so neither
 * the text nor the timing tells a visitor whether an account exists. A failure is logged;
 * the person asks again.
 */
export function afterAnswer<T>(what: string, work: () => Promise<T>): void {
  after(async () => {
    try {
      await work();
    } catch (error) {
      log.error({ err: error }, `${what} failed after answering`);
    }
  });
}
