import { memberRoute } from "@/lib/adapters/member-route";
import { BROWSER_IMPORT_MAX_BYTES } from "@/lib/contacts/import-contacts-csv";
import { chunks } from "@/lib/contacts/flows/stream-contact-import";
import { mappingFromQuery } from "@/lib/contacts/import/import-mapping";
import { previewImport } from "@/lib/contacts/import/preview-import";
import { FILE_ERRORS } from "@/lib/contacts/import/read-csv";
import { AppError, unwrap } from "@/lib/errors/app-error";
import { sameOrigin } from "@/lib/http/same-origin";

/**
 * POST /api/contacts/import/preview?mapping=<json>: the CSV import's mapping step (spec 4.15;
 * docs/decisions.md, "CSV import mappings"). The body is the file, read as the import reads it
 * (within the browser upload's limit) and staged, never applied: the answer is what each column
 * becomes (the mapping given, else the workspace's saved one for these headers, else by name),
 * the first rows as they will be stored and the rows the import will skip. Nothing is kept.
 */
export const POST = memberRoute(
  { name: "contacts import preview", audit: false }, // a read of the member's own file
  async (db, request, _params, ctx) => {
    if (!sameOrigin(request)) throw new AppError("forbidden", "Cross-site request refused.");
    const mapping = unwrap(mappingFromQuery(new URL(request.url)));
    if (Number(request.headers.get("content-length")) > BROWSER_IMPORT_MAX_BYTES)
      throw new AppError("too_large", FILE_ERRORS.tooLarge(BROWSER_IMPORT_MAX_BYTES));
    if (!request.body) throw new AppError("invalid", FILE_ERRORS.empty);
    const preview = await previewImport(db, {
      workspaceId: ctx.workspaceId,
      file: chunks(request.body),
      mapping,
      maxBytes: BROWSER_IMPORT_MAX_BYTES,
    });
    return Response.json(unwrap(preview), { headers: { "cache-control": "no-store" } });
  },
);
