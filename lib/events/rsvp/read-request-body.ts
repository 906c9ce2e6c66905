import type { AppError } from "@/lib/errors/app-error";
import { parseBody } from "@/lib/http/parse-body";
import { FORM_BODY_LIMIT, readLimitedBody } from "@/lib/http/read-limited-body";

export type BodyResult =
  { data: Record<string, unknown>; form: boolean } | { error: AppError; form: boolean };

/** A plain HTML form post (as opposed to a JSON or fetch caller). */
export function isFormPost(request: Request): boolean {
  const type = request.headers.get("content-type") ?? "";
  const accept = request.headers.get("accept") ?? "";
  return /^application\/x-www-form-urlencoded/i.test(type) && !/application\/json/i.test(accept);
}

/**
 * The body of an RSVP (docs/decisions.md, "Bounded request bodies") through the shared reader and parser:
 * JSON or URL-encoded, refused while reading past 64 KiB (`too_large`), another content type
 * `unsupported`, unparsable `invalid`.
 */
export async function readRequestBody(request: Request): Promise<BodyResult> {
  const form = isFormPost(request);
  const contentType = request.headers.get("content-type");
  const parsed = parseBody(contentType, await readLimitedBody(request, FORM_BODY_LIMIT));
  return { ...parsed, form };
}
