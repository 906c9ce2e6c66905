import "server-only";
import { unstable_rethrow } from "next/navigation";
import type { z } from "zod";
import { fieldErrors, type FormState } from "@/lib/http/form-state";
import { refusalResult } from "./action-result";
import { actionInput } from "./form-values";
import { refusalOf } from "./log-unexpected";

/**
 * A server action anyone may call (sign-in, sign-up, password reset, accepting an invitation
 * by its token): the form's fields through `schema`, then `fn`, which opens its own flow; an
 * AppError becomes the form's message (or its field's), anything else is logged once with a
 * request id. Rate limits and tokens are `fn`'s business.
 */
export function publicAction<S extends z.ZodType, R extends FormState>(
  name: string,
  schema: S,
  fn: (input: z.output<S>) => Promise<R>,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- untrusted arguments, parsed by `schema`; forms post, components bind
): (...args: any[]) => Promise<R | FormState> {
  return async (...args: unknown[]) => {
    const { raw, values } = actionInput(args);
    try {
      const parsed = schema.safeParse(raw);
      if (!parsed.success) return { errors: fieldErrors(parsed.error), values, code: "invalid" };
      return await fn(parsed.data);
    } catch (error) {
      unstable_rethrow(error);
      const refusal = refusalOf(name, error);
      return refusalResult(refusal, values);
    }
  };
}
