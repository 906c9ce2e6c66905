import type { z } from "zod";

/** What a server action behind a form returns to it: field errors, a message, the values to keep. */
export interface FormState {
  errors?: Record<string, string>;
  message?: string;
  success?: string;
  values?: Record<string, string>;
}

export function fieldErrors(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? "form");
    out[key] ??= issue.message;
  }
  return out;
}
