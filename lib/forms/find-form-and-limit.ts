import { withService } from "@/lib/db/doors";
import { formRateLimitKey, type RateLimitResult } from "@/lib/rate-limit/check-rate-limit";
import { findForm } from "./find-form";
import { isUuid, type PublicForm } from "./form-row";
import { sweepRateLimitHitsNowAndThen } from "./sweep-rate-limit-hits";

export type Gate = { form: null } | { form: PublicForm; limit: RateLimitResult };

/**
 * Spec 4.2 steps 1 and 2 in one short transaction of one statement: the form, and only when
 * it exists (the lateral call runs once per form row found) the database rate-limit
 * function (4.2.1: 5 per 60 s per form per IP). Its per-key advisory lock ends with this
 * transaction. Fail-open: when the statement fails, the form is looked up alone and the
 * request is allowed.
 */
export async function findFormAndLimit(formId: string, ip: string | null): Promise<Gate> {
  if (!isUuid(formId)) return { form: null };
  const key = formRateLimitKey(formId, ip);
  sweepRateLimitHitsNowAndThen();
  try {
    return await withService(async (db) => {
      // The limiter's hits are short-lived bookkeeping: this commit need not wait for the
      // disk (a crash could forget the last few milliseconds of hits, nothing else).
      const [, [row]] = await Promise.all([
        db`set local synchronous_commit = off`,
        db<(PublicForm & { allowed: boolean; retry_after_seconds: number })[]>`
        select f.*, w.name as workspace_name,
               exists (select 1 from public.automations a
                       where a.workspace_id = f.workspace_id and a.trigger_type = 'form_submitted' and a.is_active
                         and (a.form_id is null or a.form_id = f.id)) as has_automations,
               rl.allowed, rl.retry_after_seconds
        from public.forms f
        join public.workspaces w on w.id = f.workspace_id
        cross join lateral public.check_rate_limit(${key}, 5, 60) rl
        where f.id = ${formId}`,
      ]);
      if (!row) return { form: null };
      const { allowed, retry_after_seconds, ...form } = row;
      return { form, limit: { allowed, retryAfterSeconds: retry_after_seconds } };
    });
  } catch (error) {
    console.error("rate-limit check failed; allowing the request (fail-open)", error);
    const form = await withService((db) => findForm(db, formId));
    return form ? { form, limit: { allowed: true, retryAfterSeconds: 0 } } : { form: null };
  }
}
