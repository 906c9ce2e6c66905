import type { z } from "zod";
import type { AppErrorCode } from "@/lib/errors/app-error";

/**
 * What a server action answers (lib/adapters/action-result.ts): field errors, a message, a
 * success note, the values to keep, and on every refusal its code.
 */
export interface FormState {
  errors?: Record<string, string>;
  message?: string;
  success?: string;
  values?: Record<string, string>;
  /**
   * The refusal's code (lib/errors/app-error.ts), on every refusal; a form acts on
   * `step_up_required` (asks for a password or code, then retries)
   */
  code?: AppErrorCode;
}

export function fieldErrors(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? "form");
    out[key] ??= issue.message;
  }
  return out;
}

/** A server action behind a form, as a page hands it to a component (components never import app/). */
export type FormAction<S extends FormState = FormState> = (prev: S, form: FormData) => Promise<S>;

/** A server action a plain `<form action>` runs (no state shown): React ignores what it returns. */
export type PostAction = (form: FormData) => Promise<unknown>;

/** A PostAction as `<form action>` types it. */
export const asFormAction = (action: PostAction) => action as (form: FormData) => Promise<void>;
