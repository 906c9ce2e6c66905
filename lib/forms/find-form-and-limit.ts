import type { Db } from "@/lib/db/doors";
import { formRateLimitKey, type RateLimitResult } from "@/lib/rate-limit/check-rate-limit";
import { findForm } from "./find-form";
import { isUuid } from "@/lib/ids/uuid";
import type { PublicForm } from "./form-row";
import { sweepRateLimitHitsNowAndThen } from "./flows/sweep-rate-limit-hits";

export type Gate = { form: null } | { form: PublicForm; limit: RateLimitResult };

/** The limiter statement failed; the caller's transaction is aborted and must be retried without it. */
export class RateLimitUnavailable extends Error {}

const ALLOWED: RateLimitResult = { allowed: true, retryAfterSeconds: 0 };

/**
 * Spec 4.2 steps 1 and 2 in one statement: the form, and only when it exists (the lateral
 * call runs once per form row found) the database rate-limit function (4.2.1: 5 per 60 s
 * per form per IP). A failure of that statement throws RateLimitUnavailable so the caller
 * can go on without the limiter (fail-open). `limited: false` is that second attempt.
 */
export async function findFormAndLimit(
  db: Db,
  input: { formId: string; ip: string | null; limited: boolean },
): Promise<Gate> {
  if (!isUuid(input.formId)) return { form: null };
  if (!input.limited) {
    const form = await findForm(db, input.formId);
    return form ? { form, limit: ALLOWED } : { form: null };
  }
  sweepRateLimitHitsNowAndThen();
  try {
    const [row] = await db<(PublicForm & { allowed: boolean; retry_after_seconds: number })[]>`
      select f.*, w.name as workspace_name, w.default_locale as workspace_locale,
             exists (select 1 from public.automations a
                     where a.workspace_id = f.workspace_id and a.trigger_type = 'form_submitted' and a.is_active
                       and (a.form_id is null or a.form_id = f.id)) as has_automations,
             rl.allowed, rl.retry_after_seconds
      from public.forms f
      join public.workspaces w on w.id = f.workspace_id
      cross join lateral public.check_rate_limit(${formRateLimitKey(input.formId, input.ip)}, 5, 60) rl
      where f.id = ${input.formId}`;
    if (!row) return { form: null };
    const { allowed, retry_after_seconds, ...form } = row;
    return { form, limit: { allowed, retryAfterSeconds: retry_after_seconds } };
  } catch (error) {
    throw new RateLimitUnavailable("rate-limit check failed", { cause: error });
  }
}
