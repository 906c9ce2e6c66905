const MAX_BYTES = 64 * 1024;

export type BodyResult =
  | { data: Record<string, unknown>; form: boolean }
  | { status: 400 | 413 | 415; error: string; form: boolean };

/** A plain HTML form post (as opposed to a JSON or fetch caller). */
export function isFormPost(request: Request): boolean {
  const type = request.headers.get("content-type") ?? "";
  const accept = request.headers.get("accept") ?? "";
  return (
    /^(application\/x-www-form-urlencoded|multipart\/form-data)/i.test(type) &&
    !/application\/json/i.test(accept)
  );
}

/**
 * The body of a public POST as JSON or a form (DESIGN 5): over 64 KiB 413, another content
 * type 415, unparsable 400.
 */
export async function readRequestBody(request: Request): Promise<BodyResult> {
  const form = isFormPost(request);
  const type = (request.headers.get("content-type") ?? "").toLowerCase();
  if (Number(request.headers.get("content-length") ?? 0) > MAX_BYTES)
    return { status: 413, error: "The request body is too large.", form };
  const isJson = type.startsWith("application/json");
  const isUrlEncoded = type.startsWith("application/x-www-form-urlencoded");
  const isMultipart = type.startsWith("multipart/form-data");
  if (!isJson && !isUrlEncoded && !isMultipart)
    return { status: 415, error: "Send JSON or a form (application/x-www-form-urlencoded).", form };
  try {
    if (isMultipart) {
      const entries = [...(await request.formData()).entries()].filter(([, v]) => typeof v === "string");
      return { data: Object.fromEntries(entries), form };
    }
    const text = await request.text();
    if (Buffer.byteLength(text) > MAX_BYTES)
      return { status: 413, error: "The request body is too large.", form };
    if (isUrlEncoded) return { data: Object.fromEntries(new URLSearchParams(text)), form };
    const json: unknown = JSON.parse(text);
    if (!json || typeof json !== "object" || Array.isArray(json))
      return { status: 400, error: "Send a JSON object.", form };
    return { data: json as Record<string, unknown>, form };
  } catch {
    return { status: 400, error: "The request body could not be read.", form };
  }
}
