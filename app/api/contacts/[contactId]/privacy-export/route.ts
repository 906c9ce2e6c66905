import { z } from "zod";
import { memberRoute } from "@/lib/adapters/member-route";
import { ADMIN_ROLES } from "@/lib/auth/context";
import { CONTACT_NOT_FOUND } from "@/lib/contacts/types";
import { unwrap } from "@/lib/errors/app-error";
import { uuidField } from "@/lib/ids/uuid";
import { exportArchive } from "@/lib/privacy/export-archive";
import { exportContactData } from "@/lib/privacy/export-contact-data";
import { ADMINS_ONLY, logPrivacyExport } from "@/lib/privacy/flows/privacy-requests";

/**
 * docs/decisions.md, "Privacy requests" (GDPR art. 15): everything stored about a contact of the member's
 * workspace, as a ZIP of contact.json and one CSV per table. `?format=json` answers the JSON alone. Read as
 * the member (RLS applies), owners and admins only; audited, and logged by the system afterwards.
 */
export const GET = memberRoute(
  {
    name: "privacy export",
    params: z.object({ contactId: uuidField(CONTACT_NOT_FOUND) }),
    roles: ADMIN_ROLES,
    forbidden: ADMINS_ONLY,
    stepUp: true,
    audit: "contact.exported",
    after: ({ contactId }, ctx) => logPrivacyExport(ctx, contactId),
  },
  async (db, request, { contactId }, ctx) => {
    const data = unwrap(await exportContactData(db, { workspaceId: ctx.workspaceId, contactId }));
    ctx.audit.target("contact", contactId);
    const headers = { "cache-control": "no-store", "x-content-type-options": "nosniff" };
    if (new URL(request.url).searchParams.get("format") === "json")
      return Response.json(data, {
        headers: { ...headers, "content-disposition": `attachment; filename="contact-${contactId}.json"` },
      });
    return new Response(new Blob([exportArchive(data) as Uint8Array<ArrayBuffer>]), {
      headers: {
        ...headers,
        "content-type": "application/zip",
        "content-disposition": `attachment; filename="contact-${contactId}.zip"`,
      },
    });
  },
);
