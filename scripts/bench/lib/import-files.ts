import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { FIRST_NAMES, LAST_NAMES } from "./contacts-data";
import type { ImportMapping } from "../../../lib/contacts/import/import-mapping";

const HEADER =
  "email,first_name,last_name,phone,address_line1,address_line2,city,state,postal_code,country,birth_month,birth_day,tags,notes";

/** Row i's tags: 1 to 3 of 200. */
export function tagsOf(i: number): string[] {
  return Array.from(
    { length: 1 + (i % 3) },
    (_, k) => `tag ${String(((i * 7 + k * 67) % 200) + 1).padStart(3, "0")}`,
  );
}

/** Row i's note, on 10% of rows. */
export function noteOf(i: number): string | null {
  return i % 10 === 3 ? `Called on ${i % 28}/${1 + (i % 12)}, wants the "premium" plan` : null;
}

/** Row i of the generated import: every column filled, tagsOf(i), noteOf(i). */
function row(i: number): string {
  const tags = tagsOf(i);
  const note = noteOf(i);
  return [
    `u${i}@example.com`,
    FIRST_NAMES[i % FIRST_NAMES.length],
    LAST_NAMES[(i * 7) % LAST_NAMES.length],
    `+1202${String(i).padStart(7, "0")}`,
    `${i} Main Street`,
    `Apt ${i % 300}`,
    `City ${i % 500}`,
    "NY",
    String(10000 + (i % 89999)),
    "US",
    String(1 + (i % 12)),
    String(1 + (i % 28)),
    `"${tags.join(", ")}"`,
    note === null ? "" : `"${note.replaceAll('"', '""')}"`,
  ].join(",");
}

/** The emails already in the workspace before the import: every tenth row's. */
export const isExisting = (i: number) => i % 10 === 0;
export const emailOf = (i: number) => `u${i}@example.com`;

async function writeLines(file: string, lines: (i: number) => string, count: number, header?: string) {
  const out = createWriteStream(file);
  let buffer = header ? `${header}\n` : "";
  for (let i = 0; i < count; i++) {
    buffer += `${lines(i)}\n`;
    if (buffer.length > 1 << 20) {
      if (!out.write(buffer)) await once(out, "drain");
      buffer = "";
    }
  }
  out.end(buffer);
  await once(out, "finish");
}

export const writeImportCsv = (file: string, count: number) => writeLines(file, row, count, HEADER);

/** The same columns under headers that are none of ours, and the mapping that reads them (plus one skipped column). */
export const FOREIGN_HEADERS = [
  "Correo",
  "Nombre",
  "Apellido",
  "Teléfono",
  "Dirección",
  "Dirección 2",
  "Ciudad",
  "Provincia",
  "CP",
  "País",
  "Mes",
  "Día",
  "Etiquetas",
  "Comentario",
];
export const FOREIGN_MAPPING = Object.fromEntries(
  FOREIGN_HEADERS.map((header, i) => {
    const field = HEADER.split(",")[i];
    const target =
      field === "tags"
        ? { target: "tags" }
        : field === "notes"
          ? { target: "note" }
          : { target: "field", name: field };
    return [header, target];
  }),
) as ImportMapping;

/** The generated import's rows under FOREIGN_HEADERS, for the mapped import. */
export const writeForeignImportCsv = (file: string, count: number) =>
  writeLines(file, row, count, FOREIGN_HEADERS.join(","));

/** The same rows as contacts columns (workspace id first), for a plain COPY into contacts. */
export function writeCopyCsv(file: string, count: number, workspaceId: string) {
  return writeLines(
    file,
    (i) => {
      const cells = row(i)
        .match(/("([^"]|"")*"|[^,]*)(,|$)/g)!
        .map((c) => c.replace(/,$/, ""));
      return [workspaceId, ...cells.slice(0, 12)].join(",");
    },
    count,
  );
}
