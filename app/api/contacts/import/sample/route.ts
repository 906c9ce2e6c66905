import { memberRoute } from "@/lib/adapters/member-route";
import { sampleImportCsv } from "@/lib/contacts/import/sample-csv";

/** GET /api/contacts/import/sample: a CSV file laid out as the import reads it by name (spec 4.15). */
export const GET = memberRoute({ name: "contacts import sample", audit: false }, async () => {
  return new Response(sampleImportCsv(), {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": 'attachment; filename="contacts-sample.csv"',
      "cache-control": "no-store",
    },
  });
});
