import { AppError } from "@/lib/errors/app-error";
import { describe, expect, test } from "vitest";
import { importContactsCsv } from "@/lib/contacts/import-contacts-csv";
import { withUser } from "@/lib/db/doors";
import { setupTestDatabase } from "../helpers/db";
import { bytesOf } from "../helpers/csv";
import { createContact, createWorkspace } from "../helpers/factories";

const db = setupTestDatabase();

const valid = "email,first_name\nnew@example.com,New\n";

describe("4.15 CSV import: bad files get a clear message and change nothing", () => {
  test.each([
    ["an empty file", "", undefined, "The file is empty."],
    ["a file of blank lines", "\n\n  \n", undefined, "The file is empty."],
    [
      "a header without rows",
      "email,first_name\n",
      undefined,
      "The file has a header row but no contacts below it.",
    ],
    [
      "a file without an email column",
      "name,phone\nAda,123\n",
      undefined,
      "The file has no email column. Name one column 'Email' (or 'E-mail', 'Email Address').",
    ],
    [
      "a binary file (a spreadsheet, not CSV)",
      new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x06, 0x00, 0x08, 0x00]),
      undefined,
      "This is not a CSV file (it contains binary data). Export the sheet as CSV and try again.",
    ],
    [
      "invalid UTF-8 (Latin-1 text) after valid rows",
      new Uint8Array([...new TextEncoder().encode(valid), 0x5a, 0x6f, 0xeb, 0x40, 0x78, 0x2e, 0x74, 0x0a]),
      undefined,
      "The file is not valid UTF-8 text. Save it as 'CSV UTF-8' and try again.",
    ],
    [
      "a file over the size limit",
      valid + "x@example.com,".repeat(100) + "\n",
      1024,
      "The file is larger than 1 KB. Import it from the command line (npm run import).",
    ],
    [
      "a quote that never closes",
      `email,notes\na@example.com,"starts here\n${"more text\n".repeat(120_000)}`,
      undefined,
      "Row 2: a quoted field is never closed, so the rest of the file cannot be read.",
    ],
  ])("4.15 CSV import: %s is refused", async (_label, content, maxBytes, message) => {
    const ws = await createWorkspace(db.sql);
    await createContact(db.sql, ws.id, { email: "keep@example.com", first_name: "Keep" });
    const result = await withUser(ws.owner.claims, (tx) =>
      importContactsCsv(tx, {
        workspaceId: ws.id,
        file: bytesOf(content, 300),
        markSubscribed: true,
        uploaderIp: null,
        actorUserId: ws.owner.id,
        maxBytes,
      }),
    );
    expect(result).toEqual({ error: new AppError("invalid", message) });
    const rows =
      await db.sql`select email, first_name, is_subscribed from contacts where workspace_id = ${ws.id}`;
    expect(rows).toEqual([{ email: "keep@example.com", first_name: "Keep", is_subscribed: false }]);
    for (const table of ["tags", "notes", "consent_events"]) {
      const [{ n }] =
        await db.sql`select count(*)::int as n from ${db.sql(table)} where workspace_id = ${ws.id}`;
      expect({ table, n }).toEqual({ table, n: 0 });
    }
  });
});
