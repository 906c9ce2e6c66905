/**
 * The one JSON error envelope of every public endpoint and webhook: `{ success: false, error }`
 * with a readable message that names nothing the caller did not send.
 */
export function jsonError(status: number, error: string, headers?: HeadersInit): Response {
  return Response.json({ success: false, error }, { status, headers });
}
