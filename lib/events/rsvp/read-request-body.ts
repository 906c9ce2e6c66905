import { parseBody } from "@/lib/http/parse-body";
import { FORM_BODY_LIMIT, readLimitedBody } from "@/lib/http/read-limited-body";

export type BodyResult =
  | { data: Record<string, unknown>; form: boolean }
  | { status: 400 | 413 | 415; error: string; form: boolean };

/** A plain HTML form post (as opposed to a JSON or fetch caller). */
export function isFormPost(request: Request): boolean {
  const type = request.headers.get("content-type") ?? "";
  const accept = request.headers.get("accept") ?? "";
  return /^application\/x-www-form-urlencoded/i.test(type) && !/application\/json/i.test(accept);
}

/**
 * The body of an RSVP (docs/decisions.md, "Bounded request bodies") through the shared reader and parser:
 * JSON or URL-encoded, refused while reading past 64 KiB (413), another content type 415,
 * unparsable 400.
 */
export async function readRequestBody(request: Request): Promise<BodyResult> {
  const form = isFormPost(request);
  const contentType = request.headers.get("content-type");
  const parsed = parseBody(contentType, await readLimitedBody(request, FORM_BODY_LIMIT));
  return parsed.ok ? { data: parsed.body, form } : { status: parsed.status, error: parsed.error, form };
}
