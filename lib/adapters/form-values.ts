/**
 * A FormData as a plain object for zod: a field sent once is its value, a field sent more than
 * once (checkbox groups, multi-selects) or named `x[]` is an array under `x`. Files stay files.
 */
export function formValues(form: FormData): Record<string, FormDataEntryValue | FormDataEntryValue[]> {
  const out: Record<string, FormDataEntryValue | FormDataEntryValue[]> = {};
  for (const key of new Set(form.keys())) {
    if (key.startsWith("$ACTION")) continue; // Next.js's own fields
    const all = form.getAll(key);
    if (key.endsWith("[]")) out[key.slice(0, -2)] = all;
    else out[key] = all.length > 1 ? all : all[0];
  }
  return out;
}

/** The text fields to give back to a form so it keeps what was typed (never a password). */
export function keptValues(raw: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(raw))
    if (typeof value === "string" && !/pass(word)?/i.test(key)) out[key] = value;
  return out;
}

/**
 * A server action's arguments as its raw input and the values to keep: the posted FormData
 * wherever it is among them (bound arguments come first), else the first argument's object.
 */
export function actionInput(args: unknown[]): {
  raw: Record<string, unknown>;
  values: Record<string, string>;
} {
  const form = args.find((arg): arg is FormData => arg instanceof FormData);
  const raw = form ? formValues(form) : ((args[0] ?? {}) as Record<string, unknown>);
  return { raw, values: keptValues(raw) };
}
