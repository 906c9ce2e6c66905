import { AppError } from "@/lib/errors/app-error";

/** Forms and RSVP (docs/decisions.md, "Bounded request bodies"). */
export const FORM_BODY_LIMIT = 64 * 1024;
/** The payproc, ticketing and email webhooks (docs/decisions.md, "Bounded request bodies"). */
export const WEBHOOK_BODY_LIMIT = 1024 * 1024;

export type RawBody = { bytes: Uint8Array } | { tooLarge: true };

/**
 * The one reader of request bodies (docs/decisions.md, "Bounded request bodies"). A declared Content-Length
 * above `limit` is refused before anything is read; otherwise the stream is read chunk by chunk and
 * cancelled as soon as the count passes the cap, so at most `limit` bytes plus one chunk are
 * ever held, whatever the client declared (chunked, or a Content-Length that lies). Route
 * handlers never call request.text()/json()/formData()/arrayBuffer() (an ESLint rule).
 */
export async function readLimitedBody(request: Request, limit: number): Promise<RawBody> {
  const declared = Number(request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > limit) {
    await request.body?.cancel().catch(() => {});
    return { tooLarge: true };
  }
  if (!request.body) return { bytes: new Uint8Array() };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      return { tooLarge: true };
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { bytes };
}

/**
 * A body as UTF-8 text (webhooks, whose signature covers the raw text): over the cap
 * `too_large`, bytes that are not UTF-8 `invalid` (thrown AppErrors: the route adapter answers them).
 */
export async function readLimitedText(request: Request, limit: number): Promise<string> {
  const raw = await readLimitedBody(request, limit);
  if ("tooLarge" in raw) throw new AppError("too_large", "The request body is too large.");
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(raw.bytes);
  } catch {
    throw new AppError("invalid", "The request body is not valid UTF-8.");
  }
}
