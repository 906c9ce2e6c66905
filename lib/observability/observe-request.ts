import { REQUEST_ID_HEADER, requestIdFrom, withRequestContext } from "./log";
import { metrics } from "./metrics";

/**
 * Runs a route handler as one observed request: its id (the caller's x-request-id, or a new one)
 * on every log line written meanwhile and on the response's x-request-id header, and its duration
 * in crm_http_request_duration_seconds by route name, method and status. A handler that throws
 * (Next's redirect and notFound do) is counted with status "thrown" and the error goes on.
 */
export async function observeRequest(
  route: string,
  request: Request,
  handler: () => Promise<Response>,
): Promise<Response> {
  const requestId = requestIdFrom(request.headers);
  const started = performance.now();
  let status = "thrown";
  try {
    const response = await withRequestContext({ requestId, route }, handler);
    status = String(response.status);
    return withRequestId(response, requestId);
  } finally {
    metrics()
      .requestDuration.labels(route, request.method, status)
      .observe((performance.now() - started) / 1000);
  }
}

function withRequestId(response: Response, requestId: string): Response {
  try {
    response.headers.set(REQUEST_ID_HEADER, requestId);
    return response;
  } catch {
    // immutable headers (Response.redirect, a fetched response): the same answer, new headers
    const copy = new Response(response.body, response);
    copy.headers.set(REQUEST_ID_HEADER, requestId);
    return copy;
  }
}
