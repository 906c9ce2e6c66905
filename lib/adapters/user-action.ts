import "server-only";
import { headers } from "next/headers";
import { redirect, unstable_rethrow } from "next/navigation";
import type { z } from "zod";
import { getClaims } from "@/lib/auth/session";
import type { Claims } from "@/lib/db/doors";
import { AppError } from "@/lib/errors/app-error";
import { clientIp } from "@/lib/http/client-ip";
import { stepUpFresh } from "@/lib/two-factor/step-up";
import { refusalResult } from "./action-result";
import { fieldErrors, type FormState } from "@/lib/http/form-state";
import { actionInput } from "./form-values";
import { refusalOf } from "./log-unexpected";

/** A signed-in account, in a workspace or in none: what a user adapter's function receives. */
export interface UserContext {
  claims: Claims;
  userId: string;
  /** the caller's address (lib/http/client-ip.ts), read once per request */
  ip: string | null;
}

export interface UserActionOptions<I> {
  /** where a caller without a session is sent (default /sign-in), e.g. back to the link they opened */
  signIn?: (input: I) => string;
  /**
   * The session must have proved its owner within the step-up window (lib/two-factor/step-up.ts;
   * memberAction's `stepUp`), else `step_up_required` and nothing runs.
   */
  stepUp?: boolean;
}

/**
 * A server action for a signed-in account that need not be in a workspace (creating the first
 * one, accepting an invitation, the account's own second factor): the form's fields through
 * `schema` (once), the session (its version checked: docs/decisions.md, "Sessions"; without
 * one, a redirect to sign-in), the step-up when asked, then `fn`, which opens its own flow. Errors as publicAction:
 * an AppError is the form's message (or its field's), anything else is logged with a request id.
 */
export function userAction<S extends z.ZodType, R extends FormState>(
  name: string,
  schema: S,
  fn: (input: z.output<S>, ctx: UserContext) => Promise<R>,
  options: UserActionOptions<z.output<S>> = {},
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- untrusted arguments, parsed by `schema`; forms post, components bind
): (...args: any[]) => Promise<R | FormState> {
  return async (...args: unknown[]) => {
    const { raw, values } = actionInput(args);
    try {
      const parsed = schema.safeParse(raw);
      const claims = await getClaims();
      if (!claims) redirect(parsed.success && options.signIn ? options.signIn(parsed.data) : "/sign-in");
      if (!parsed.success) return { errors: fieldErrors(parsed.error), values };
      if (options.stepUp && !stepUpFresh(claims)) throw new AppError("step_up_required");
      return await fn(parsed.data, { claims, userId: claims.sub, ip: clientIp(await headers()) });
    } catch (error) {
      unstable_rethrow(error);
      return refusalResult(refusalOf(name, error), values);
    }
  };
}
