import type { ServerResponse } from "node:http";

/** A Fetch Response written to a Node.js HTTP response (the worker's own port), body and all. */
export async function sendResponse(target: ServerResponse, response: Response): Promise<void> {
  target.writeHead(response.status, Object.fromEntries(response.headers));
  target.end(Buffer.from(await response.arrayBuffer()));
}
