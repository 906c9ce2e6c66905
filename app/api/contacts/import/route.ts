import { memberRoute } from "@/lib/adapters/member-route";
import { BROWSER_IMPORT_MAX_BYTES } from "@/lib/contacts/import-contacts-csv";
import { streamContactImport } from "@/lib/contacts/flows/stream-contact-import";
import { mappingFromQuery } from "@/lib/contacts/import/import-mapping";
import { FILE_ERRORS } from "@/lib/contacts/import/read-csv";
import { AppError, unwrap } from "@/lib/errors/app-error";
import { readLimitedBody } from "@/lib/http/read-limited-body";
import { sameOrigin } from "@/lib/http/same-origin";

/**
 * POST /api/contacts/import?subscribed=1&filename=<name>&mapping=<json>: the dashboard's CSV import
 * (spec 4.15), with the column mapping of its mapping step (lib/contacts/import/import-mapping.ts). The body is the file itself, read as it arrives (a server action would
 * buffer it whole); the answer is a stream of NDJSON lines (lib/contacts/flows/stream-contact-import.ts).
 * A body sent without Content-Length is counted as it is read, before anything else: above the
 * job threshold it goes to the job path like any large file, above the limit it is refused (413).
 */
export const POST = memberRoute(
  // audited by the import's own transaction, which the stream opens (contacts.imported)
  { name: "contacts import", audit: false },
  async (_db, request, _params, ctx) => {
    if (!sameOrigin(request)) throw new AppError("forbidden", "Cross-site request refused.");
    const url = new URL(request.url);
    const fileName = url.searchParams.get("filename") ?? "";
    if (fileName && !/\.(csv|txt)$/i.test(fileName)) throw new AppError("unsupported", "Choose a .csv file.");
    const mapping = unwrap(mappingFromQuery(url));
    const tooLarge = () => new AppError("too_large", FILE_ERRORS.tooLarge(BROWSER_IMPORT_MAX_BYTES));
    const declared = request.headers.get("content-length");
    let body = request.body;
    let length = Number(declared);
    if (body && (declared === null || !Number.isSafeInteger(length))) {
      // sent chunked: the length that picks the job path (and the limit) is what arrives, counted
      const raw = await readLimitedBody(request, BROWSER_IMPORT_MAX_BYTES);
      if ("tooLarge" in raw) throw tooLarge();
      body = new Blob([raw.bytes as Uint8Array<ArrayBuffer>]).stream();
      length = raw.bytes.byteLength;
    }
    if (length > BROWSER_IMPORT_MAX_BYTES) throw tooLarge();
    if (!body || !(length > 0)) throw new AppError("invalid", FILE_ERRORS.empty);
    const stream = streamContactImport(ctx, {
      body,
      length,
      fileName,
      markSubscribed: url.searchParams.get("subscribed") === "1",
      ip: ctx.ip,
      mapping,
    });
    return new Response(stream, {
      headers: { "content-type": "application/x-ndjson; charset=utf-8", "cache-control": "no-store" },
    });
  },
);
