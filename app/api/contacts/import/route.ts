import { randomUUID } from "node:crypto";
import { currentMember } from "@/lib/auth/context";
import { appUrl } from "@/lib/config";
import {
  BROWSER_IMPORT_MAX_BYTES,
  importContactsCsv,
  type ImportProgress,
} from "@/lib/contacts/import-contacts-csv";
import { FILE_ERRORS } from "@/lib/contacts/import/read-csv";
import { withUser } from "@/lib/db/doors";
import { clientIp } from "@/lib/http/client-ip";

/**
 * POST /api/contacts/import?subscribed=1&filename=<name>: the dashboard's CSV import
 * (spec 4.15). The body is the file itself, read as it arrives (a server action would
 * buffer it whole); the answer is a stream of NDJSON lines, progress then the outcome.
 */
export async function POST(request: Request): Promise<Response> {
  const ctx = await currentMember();
  if (!ctx) return Response.json({ error: "Sign in to import contacts." }, { status: 401 });
  if (!sameOrigin(request)) return Response.json({ error: "Cross-site request refused." }, { status: 403 });
  const url = new URL(request.url);
  const filename = url.searchParams.get("filename") ?? "";
  if (filename && !/\.(csv|txt)$/i.test(filename))
    return Response.json({ error: "Choose a .csv file." }, { status: 415 });
  const length = Number(request.headers.get("content-length") ?? "0");
  if (length > BROWSER_IMPORT_MAX_BYTES)
    return Response.json({ error: FILE_ERRORS.tooLarge(BROWSER_IMPORT_MAX_BYTES) }, { status: 413 });
  if (!request.body || request.headers.get("content-length") === "0")
    return Response.json({ error: FILE_ERRORS.empty }, { status: 400 });
  const body = request.body;

  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (line: object) => controller.enqueue(encoder.encode(`${JSON.stringify(line)}\n`));
      let last = 0;
      const onProgress = (p: ImportProgress) => {
        if (p.phase !== "reading" || Date.now() - last > 200) {
          last = Date.now();
          send({ type: "progress", ...p, totalBytes: length });
        }
      };
      try {
        const result = await withUser(ctx.claims, (db) =>
          importContactsCsv(db, {
            workspaceId: ctx.workspace.workspaceId,
            file: chunks(body),
            markSubscribed: url.searchParams.get("subscribed") === "1",
            uploaderIp: clientIp(request.headers),
            actorUserId: ctx.userId,
            maxBytes: BROWSER_IMPORT_MAX_BYTES,
            onProgress,
          }),
        );
        send(
          "error" in result ? { type: "error", error: result.error } : { type: "done", report: result.data },
        );
      } catch (error) {
        const ref = randomUUID().slice(0, 8);
        console.error(`[contacts import ${ref}]`, error);
        send({
          type: "error",
          error: `The import failed and was rolled back: nothing was changed. (ref ${ref})`,
        });
      } finally {
        controller.close();
      }
    },
  });
  return new Response(stream, {
    headers: { "content-type": "application/x-ndjson; charset=utf-8", "cache-control": "no-store" },
  });
}

async function* chunks(body: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

/** Cookies go with cross-site requests in some browsers: accept only our own pages' origin. */
function sameOrigin(request: Request): boolean {
  const origin = request.headers.get("origin");
  if (!origin) return request.headers.get("sec-fetch-site") !== "cross-site";
  const host = request.headers.get("x-forwarded-host") ?? request.headers.get("host");
  try {
    const o = new URL(origin);
    return o.host === host || o.origin === new URL(appUrl()).origin;
  } catch {
    return false;
  }
}
