import { currentMember } from "@/lib/auth/context";
import { consentLedgerCsv } from "@/lib/consent/consent-ledger";
import { getContactConsent } from "@/lib/consent/get-contact-consent";
import { withUser } from "@/lib/db/doors";

/** Beyond the spec (spec 3.3 consent state): a contact's consent ledger as CSV, for the signed-in member's workspace only. */
export async function GET(_request: Request, { params }: { params: Promise<{ contactId: string }> }) {
  const ctx = await currentMember();
  if (!ctx) return Response.json({ error: "Sign in first." }, { status: 401 });
  const { contactId } = await params;
  const data = await withUser(ctx.claims, (db) =>
    getContactConsent(db, { workspaceId: ctx.workspace.workspaceId, contactId }),
  );
  if (!data) return Response.json({ error: "Contact not found." }, { status: 404 });
  return new Response(consentLedgerCsv(data.contact.email, data.ledger), {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="consent-${data.contact.id}.csv"`,
      "cache-control": "no-store",
    },
  });
}
