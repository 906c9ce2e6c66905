import { refused, type Result } from "@/lib/errors/app-error";
import { formKeyMatches } from "./api-key";
import type { FormRow } from "./form-row";
import { originAllowed, requestOrigin } from "./origin-allowed";

export interface SubmissionCredentials {
  /** header x-api-key, else query parameter api_key */
  apiKey: string | null;
  origin: string | null;
  referer: string | null;
}

export type AuthResult = Result<{ byKey: boolean }>;

/**
 * Spec 5.1 (pipeline step 3). A request that carries a key is judged by the key alone: the
 * right key skips the origin check (submission type 'api_key'), a wrong one is refused even
 * in open mode. Without a key, the Origin (or Referer) must be in allowed_domains; an empty
 * list is open mode.
 */
export function authenticateSubmission(
  form: Pick<FormRow, "api_key" | "allowed_domains">,
  credentials: SubmissionCredentials,
): AuthResult {
  if (credentials.apiKey) {
    return formKeyMatches(form.api_key, credentials.apiKey)
      ? { data: { byKey: true } }
      : refused("forbidden", "The form key is not valid.");
  }
  const origin = requestOrigin(credentials.origin, credentials.referer);
  return originAllowed(form.allowed_domains, origin)
    ? { data: { byKey: false } }
    : refused("forbidden", "This website is not allowed to submit this form.");
}
