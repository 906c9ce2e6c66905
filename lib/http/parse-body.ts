/**
 * The one parser of public request bodies (forms, RSVP; spec 4.2 step 4): a JSON or
 * URL-encoded body read by readLimitedBody. docs/decisions.md, "The form pipeline": any other content type
 * `unsupported`, over the reader's cap `too_large`, malformed (bad JSON, not an object, invalid UTF-8, NUL
 * characters, absurd nesting) `invalid`. Duplicate URL-encoded keys: the last one wins (the
 * checkbox-after-hidden-input pattern).
 */
import { refused, type Result } from "@/lib/errors/app-error";

const MAX_DEPTH = 16;

export type { RawBody } from "./read-limited-body";
import type { RawBody } from "./read-limited-body";
export type SubmittedBody = Record<string, unknown>;
/** The body's fields, or a refusal (`unsupported`, `too_large`, `invalid`), as every domain result. */
export type ParsedBody = Result<SubmittedBody>;

type Kind = "json" | "urlencoded";

export function bodyKind(contentType: string | null): Kind | null {
  const mime = contentType?.split(";")[0].trim().toLowerCase();
  if (mime === "application/json" || (mime?.startsWith("application/") && mime.endsWith("+json")))
    return "json";
  if (mime === "application/x-www-form-urlencoded") return "urlencoded";
  return null;
}

export const TOO_LARGE = "The request body is too large.";

const malformed = (message: string): ParsedBody => refused("invalid", message);

export function parseBody(contentType: string | null, raw: RawBody): ParsedBody {
  const kind = bodyKind(contentType);
  if (!kind)
    return refused("unsupported", "Send the body as application/json or application/x-www-form-urlencoded.");
  if ("tooLarge" in raw) return refused("too_large", TOO_LARGE);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(raw.bytes);
  } catch {
    return malformed("The request body is not valid UTF-8.");
  }
  const body = kind === "json" ? parseJson(text) : parseUrlEncoded(text);
  if (typeof body === "string") return malformed(body);
  const problem = checkValues(body, 0);
  return problem ? malformed(problem) : { data: body };
}

function parseJson(text: string): SubmittedBody | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return "The request body is not valid JSON.";
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return "The request body must be a JSON object.";
  return value as SubmittedBody;
}

function parseUrlEncoded(text: string): SubmittedBody | string {
  // A Map, then fromEntries: a key such as '__proto__' becomes a plain own property.
  const entries = new Map<string, string>();
  for (const pair of text.split("&")) {
    if (!pair) continue;
    const at = pair.indexOf("=");
    const [key, value] = at === -1 ? [pair, ""] : [pair.slice(0, at), pair.slice(at + 1)];
    try {
      entries.set(decode(key), decode(value));
    } catch {
      return "The request body is not valid URL-encoded UTF-8.";
    }
  }
  return Object.fromEntries(entries);
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const decode = (part: string) => decodeURIComponent(part.replace(/\+/g, " "));

/** Strings must be well-formed Unicode without NUL (Postgres cannot store either). */
function checkValues(value: unknown, depth: number): string | null {
  if (depth > MAX_DEPTH) return "The request body is nested too deeply.";
  if (typeof value === "string") {
    if (LONE_SURROGATE.test(value)) return "The request body is not valid UTF-8.";
    if (value.includes("\u0000")) return "The request body contains a NUL character.";
    return null;
  }
  if (typeof value !== "object" || value === null) return null;
  for (const [key, item] of Object.entries(value)) {
    const problem = checkValues(key, depth) ?? checkValues(item, depth + 1);
    if (problem) return problem;
  }
  return null;
}
