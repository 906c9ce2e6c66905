import { describe, expect, test } from "vitest";
import { mapColumns, splitTags } from "@/lib/contacts/import/csv-columns";
import { readCsv } from "@/lib/contacts/import/read-csv";
import { validateImportRow } from "@/lib/contacts/import/validate-import-row";
import { bytesOf } from "../helpers/csv";

describe("4.15 CSV import: headers are matched case-insensitively with the usual aliases", () => {
  test("aliases and spellings map to fields; unknown columns are ignored; the first of two wins", () => {
    const m = mapColumns([
      "\uFEFFE-mail",
      "First Name",
      "SURNAME",
      "Zip",
      "Mobile",
      "Street Address",
      "Shoe size",
      "email",
    ]);
    expect(m.fields).toEqual([
      "email",
      "first_name",
      "last_name",
      "postal_code",
      "phone",
      "address_line1",
      null,
      null,
    ]);
    expect(m.hasEmail).toBe(true);
    expect(mapColumns(["Email Address"]).fields).toEqual(["email"]);
    expect(mapColumns(["birth_month", "Birth Day", "postal_code"]).fields).toEqual([
      "birth_month",
      "birth_day",
      "postal_code",
    ]);
    expect(mapColumns(["name", "phone"]).hasEmail).toBe(false);
  });

  test("tags split on commas and semicolons, trimmed, de-duplicated case-insensitively", () => {
    expect(splitTags(" VIP, newsletter;vip ;; Press ")).toEqual(["VIP", "newsletter", "Press"]);
    expect(splitTags("")).toEqual([]);
  });
});

describe("4.15/8.1 CSV import row rules", () => {
  test("a valid row is normalised: email lowercased, blanks null, note as escaped HTML", () => {
    const result = validateImportRow(2, {
      email: " A@B.CO ",
      first_name: " Ann ",
      city: " ",
      notes: "Hi <you>",
    });
    expect(result).toMatchObject({
      row: {
        rowNumber: 2,
        email: "a@b.co",
        first_name: "Ann",
        city: null,
        note_html: "<p>Hi &lt;you&gt;</p>",
      },
    });
  });
  test("birth month and day: both or neither, 1-12 and 1-31", () => {
    expect(validateImportRow(2, { email: "a@b.co", birth_month: "12", birth_day: "31" })).toHaveProperty(
      "row",
    );
    expect(validateImportRow(2, { email: "a@b.co", birth_month: "02", birth_day: "" })).toEqual({
      reasons: ["Birth month and birth day must be given together."],
    });
    expect(validateImportRow(2, { email: "a@b.co", birth_month: "0", birth_day: "0" })).toEqual({
      reasons: [
        "Birth month must be a whole number from 1 to 12.",
        "Birth day must be a whole number from 1 to 31.",
      ],
    });
  });
});

describe("CSV reading is streamed", () => {
  test("records come out chunk by chunk, numbered like spreadsheet rows, whatever the chunk size", async () => {
    const csv = 'email,notes\r\na@x.co,"multi\r\nline, with comma"\r\nb@x.co,plain\r\n';
    for (const size of [1, 2, 3, 7, 1000]) {
      const records = [];
      for await (const batch of readCsv(bytesOf(csv, size))) records.push(...batch);
      expect(records.map((r) => [r.rowNumber, r.cells])).toEqual([
        [1, ["email", "notes"]],
        [2, ["a@x.co", "multi\r\nline, with comma"]],
        [3, ["b@x.co", "plain"]],
      ]);
    }
  });
});
