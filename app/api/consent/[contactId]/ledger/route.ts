import { z } from "zod";
import { memberRoute } from "@/lib/adapters/member-route";
import { consentLedgerCsv } from "@/lib/consent/consent-ledger";
import { getContactConsent } from "@/lib/consent/get-contact-consent";
import { CONTACT_NOT_FOUND } from "@/lib/contacts/types";
import { AppError } from "@/lib/errors/app-error";
import { uuidField } from "@/lib/ids/uuid";

/** Beyond the spec (spec 3.3 consent state): a contact's consent ledger as CSV, for the signed-in member's workspace only; audited as an export. */
export const GET = memberRoute(
  {
    name: "consent ledger",
    params: z.object({ contactId: uuidField(CONTACT_NOT_FOUND) }),
    audit: "consent.exported",
  },
  async (db, _request, { contactId }, ctx) => {
    const data = await getContactConsent(db, { workspaceId: ctx.workspaceId, contactId });
    if (!data) throw new AppError("not_found", CONTACT_NOT_FOUND);
    ctx.audit.target("contact", contactId);
    return new Response(consentLedgerCsv(data.contact.email, data.ledger), {
      headers: {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": `attachment; filename="consent-${data.contact.id}.csv"`,
        "cache-control": "no-store",
      },
    });
  },
);
