import type { AppError } from "@/lib/errors/app-error";
import type { FormState } from "@/lib/http/form-state";

/**
 * The one answer of a server action (docs/decisions.md, "One error type and the adapters"): what
 * a form shows (FormState: field errors, a message, a success note, the values to keep), `data`
 * for an action that answers data, and on every refusal the AppError's `code`, so a component
 * tells refusals apart without reading their text. The adapters build every refusal with
 * `refusalResult`; an action that must answer a shape of the spec's (spec 4.15's refunds:
 * `{success, error?}`) says so with memberAction's `refusal`.
 */
export type ActionResult<T = never> = FormState & { data?: T };

/** An AppError as an action's refusal: beside its field when it names one, else the message. */
export function refusalResult(error: AppError, values?: Record<string, string>): FormState {
  const state: FormState = error.field
    ? { errors: { [error.field]: error.message }, code: error.code }
    : { message: error.message, code: error.code };
  return values ? { ...state, values } : state;
}
