import { currentMember } from "@/lib/auth/context";
import { isUuid } from "@/lib/ids/uuid";
import { exportArchive } from "@/lib/privacy/export-archive";
import { exportContactFlow } from "@/lib/privacy/flows/privacy-requests";

/**
 * Issue 16 (GDPR art. 15): everything stored about a contact of the member's workspace, as a
 * ZIP of contact.json and one CSV per table. `?format=json` answers the JSON alone.
 */
export async function GET(request: Request, { params }: { params: Promise<{ contactId: string }> }) {
  const ctx = await currentMember();
  if (!ctx) return Response.json({ error: "Sign in first." }, { status: 401 });
  const { contactId } = await params;
  if (!isUuid(contactId)) return Response.json({ error: "Contact not found." }, { status: 404 });
  const result = await exportContactFlow(ctx, contactId);
  if ("error" in result) return Response.json({ error: result.error }, { status: result.status });
  const headers = { "cache-control": "no-store", "x-content-type-options": "nosniff" };
  if (new URL(request.url).searchParams.get("format") === "json")
    return Response.json(result.data, {
      headers: { ...headers, "content-disposition": `attachment; filename="contact-${contactId}.json"` },
    });
  return new Response(new Blob([exportArchive(result.data) as Uint8Array<ArrayBuffer>]), {
    headers: {
      ...headers,
      "content-type": "application/zip",
      "content-disposition": `attachment; filename="contact-${contactId}.zip"`,
    },
  });
}
