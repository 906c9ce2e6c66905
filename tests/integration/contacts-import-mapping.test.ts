import { describe, expect, test } from "vitest";
import { signIn } from "../helpers/member-session";
import { POST as importRoute } from "@/app/api/contacts/import/route";
import { POST as previewRoute } from "@/app/api/contacts/import/preview/route";
import { GET as sampleRoute } from "@/app/api/contacts/import/sample/route";
import { runContactImport } from "@/lib/contacts/flows/run-contact-import";
import { importContactsCsv, type ImportContactsCsvInput } from "@/lib/contacts/import-contacts-csv";
import { parseImportMapping, type ImportMapping } from "@/lib/contacts/import/import-mapping";
import { previewImport, type ImportPreview } from "@/lib/contacts/import/preview-import";
import { queueContactImport } from "@/lib/contacts/import/queue-contact-import";
import { withService, withUser } from "@/lib/db/doors";
import { setupTestDatabase } from "../helpers/db";
import { bytesOf, IMPORT_TABLES } from "../helpers/csv";
import { addMember, createContact, createWorkspace, type TestWorkspace } from "../helpers/factories";

const db = setupTestDatabase();

/** A file whose headers are none of ours (a Spanish CRM's export). */
const FOREIGN = [
  "Correo,Nombre,Apellido,Ciudad,Etiquetas,Grupo,Comentario,Interno,Phone",
  'ana@example.com,Ana,García,Madrid,"socia; Prensa",Voluntaria,Llamar en mayo,secret-1,555 0100',
  "luis@example.com,Luis,,Sevilla,,,,secret-2,555 0101",
].join("\n");

const FOREIGN_MAPPING: ImportMapping = {
  Correo: { target: "field", name: "email" },
  Nombre: { target: "field", name: "first_name" },
  Apellido: { target: "field", name: "last_name" },
  Ciudad: { target: "field", name: "city" },
  Etiquetas: { target: "tags" },
  Grupo: { target: "tags" },
  Comentario: { target: "note" },
  Interno: { target: "skip" },
  Phone: { target: "skip" },
};

async function runImport(ws: TestWorkspace, csv: string, options: Partial<ImportContactsCsvInput> = {}) {
  return withUser(ws.owner.claims, (tx) =>
    importContactsCsv(tx, {
      workspaceId: ws.id,
      file: bytesOf(csv, 11),
      markSubscribed: false,
      uploaderIp: null,
      actorUserId: ws.owner.id,
      ...options,
    }),
  );
}

async function preview(ws: TestWorkspace, csv: string, mapping?: ImportMapping): Promise<ImportPreview> {
  const result = await withUser(ws.owner.claims, (tx) =>
    previewImport(tx, { workspaceId: ws.id, file: bytesOf(csv, 13), mapping }),
  );
  if ("error" in result) throw result.error;
  return result.data;
}

const contacts = (wsId: string) => db.sql`
  select email, first_name, last_name, phone, address_line1, address_line2, city, state, postal_code, country,
    birth_month, birth_day,
    coalesce((select array_agg(t.name order by t.name) from contact_tags ct join tags t on t.id = ct.tag_id
              where ct.contact_id = c.id), '{}') as tags,
    (select string_agg(n.content_text, '|') from notes n where n.contact_id = c.id) as note
  from contacts c where workspace_id = ${wsId} order by email`;

const snapshot = async () =>
  Object.fromEntries(
    await Promise.all(
      [...IMPORT_TABLES, "import_mappings"].map(async (t) => [
        t,
        await db.sql`select * from ${db.sql(t)} order by 1, 2`,
      ]),
    ),
  );

function request(path: string, csv: string, query: Record<string, string> = {}) {
  const body = new TextEncoder().encode(csv);
  return new Request(`http://localhost:3000${path}?${new URLSearchParams({ filename: "f.csv", ...query })}`, {
    method: "POST",
    headers: { "content-type": "text/csv", "content-length": String(body.byteLength) },
    body,
  });
}

describe("4.15 CSV import: a column mapping for files whose headers are not ours", () => {
  test("4.15 import mapping: mapped headers fill the chosen columns; skipped and unnamed columns store nothing", async () => {
    const ws = await createWorkspace(db.sql);
    const result = await runImport(ws, FOREIGN, { mapping: FOREIGN_MAPPING });
    if ("error" in result) throw result.error;
    expect(result.data).toMatchObject({ created: 2, skipped: 0, tagsCreated: 3, notesAdded: 1 });
    expect(result.data.columns.map((c) => c.field)).toEqual([
      "email",
      "first_name",
      "last_name",
      "city",
      "tags",
      "tags",
      "notes",
      null,
      null,
    ]);
    const rows = await contacts(ws.id);
    expect(rows).toEqual([
      expect.objectContaining({
        email: "ana@example.com",
        first_name: "Ana",
        last_name: "García",
        city: "Madrid",
        phone: null, // 'Phone' matches by name, but the mapping skips it
        tags: expect.arrayContaining(["Prensa", "socia", "Voluntaria"]),
        note: "Llamar en mayo",
      }),
      expect.objectContaining({ email: "luis@example.com", first_name: "Luis", city: "Sevilla", tags: [] }),
    ]);
    const stored = JSON.stringify(await db.sql`select * from contacts where workspace_id = ${ws.id}`);
    expect(stored).not.toContain("secret-");
  });

  test("4.15 import mapping: headers the mapping does not name are matched by name, as without a mapping", async () => {
    const ws = await createWorkspace(db.sql);
    const result = await runImport(ws, "Mail,Phone,Colour\nbo@example.com,555 0199,red\n", {
      mapping: { Mail: { target: "field", name: "email" } },
    });
    if ("error" in result) throw result.error;
    expect(await contacts(ws.id)).toEqual([
      expect.objectContaining({ email: "bo@example.com", phone: "555 0199", tags: [], note: null }),
    ]);
  });

  test("4.15 import mapping: tags columns split on ; and , into one list; missing tags are created, existing ones reused whatever their case", async () => {
    const ws = await createWorkspace(db.sql);
    const [vip] = await db.sql`insert into tags (workspace_id, name) values (${ws.id}, 'VIP') returning id`;
    const csv = 'Who,Kinds,More\ncy@example.com,"vip; Donor,  donor ",Press;;\n';
    const result = await runImport(ws, csv, {
      mapping: {
        Who: { target: "field", name: "email" },
        Kinds: { target: "tags" },
        More: { target: "tags" },
      },
    });
    if ("error" in result) throw result.error;
    expect(result.data).toMatchObject({ tagsCreated: 2, tagsAttached: 3 });
    const tags = await db.sql`select id, name from tags where workspace_id = ${ws.id} order by name`;
    expect(tags.map((t) => t.name)).toEqual(["Donor", "Press", "VIP"]);
    expect(tags.find((t) => t.name === "VIP")!.id).toBe(vip.id);
    expect((await contacts(ws.id))[0].tags).toEqual(["Donor", "Press", "VIP"]);
  });

  test("4.15 import mapping: note columns become one 'contact' note on the contact, by the importing member", async () => {
    const ws = await createWorkspace(db.sql);
    const csv = "Who,Call notes,Visit notes\ndi@example.com,Called <twice>,Visited\nel@example.com,,\n";
    const result = await runImport(ws, csv, {
      mapping: {
        Who: { target: "field", name: "email" },
        "Call notes": { target: "note" },
        "Visit notes": { target: "note" },
      },
    });
    if ("error" in result) throw result.error;
    expect(result.data.notesAdded).toBe(1);
    const notes = await db.sql`select n.type, n.content, n.content_text, n.created_by, c.email
      from notes n join contacts c on c.id = n.contact_id where n.workspace_id = ${ws.id}`;
    expect(notes).toEqual([
      {
        type: "contact",
        content: "<p>Called &lt;twice&gt;</p><p>Visited</p>",
        content_text: "Called <twice>\n\nVisited",
        created_by: ws.owner.id,
        email: "di@example.com",
      },
    ]);
  });

  test("4.15 import mapping: an unknown target, a field that is not a contact column, or a column the file lacks is refused as invalid; nothing is written", async () => {
    for (const bad of [
      { Correo: { target: "address" } },
      { Correo: { target: "field", name: "source" } },
      { Correo: { target: "field", name: "email", extra: 1 } },
      ["not", "an", "object"],
    ]) {
      const parsed = parseImportMapping(bad);
      expect("error" in parsed && parsed.error.code).toBe("invalid");
    }
    const ws = await createWorkspace(db.sql);
    signIn(ws.owner.claims);
    const before = await snapshot();
    for (const route of [importRoute, previewRoute]) {
      const path = route === importRoute ? "/api/contacts/import" : "/api/contacts/import/preview";
      const res = await route(request(path, FOREIGN, { mapping: '{"Correo":{"target":"address"}}' }));
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ success: false, code: "invalid" });
    }
    const missing = await runImport(ws, FOREIGN, {
      mapping: { Correo2: { target: "field", name: "email" } },
    });
    expect("error" in missing && missing.error).toMatchObject({
      code: "invalid",
      message: "The column mapping names a column the file does not have: 'Correo2'.",
    });
    expect(await snapshot()).toEqual(before);
  });

  test("4.15 import mapping: the preview's rows and skipped rows are exactly what the import then stores and reports", async () => {
    const ws = await createWorkspace(db.sql);
    await createContact(db.sql, ws.id, { email: "ana@example.com", first_name: "Old", phone: "1" });
    const csv = [
      FOREIGN,
      "not-an-email,Bad,,,,,,,",
      "fe@example.com,Fe,Ruiz,Bilbao,,,Una nota,,",
      ...Array.from({ length: 12 }, (_, i) => `row${String(i).padStart(2, "0")}@example.com,R${i},,,x,,,,`),
    ].join("\n");
    const shown = await preview(ws, csv, FOREIGN_MAPPING);
    expect(shown).toMatchObject({ source: "given", rowsRead: 16, valid: 15, skipped: 1 });
    expect(shown.rows).toHaveLength(10);
    expect(shown.errors).toEqual([
      { row: 4, email: "not-an-email", reason: "Email is not a valid address." },
    ]);
    expect(await db.sql`select count(*)::int as n from contacts where workspace_id = ${ws.id}`).toEqual([
      { n: 1 },
    ]); // the preview applies nothing

    const result = await runImport(ws, csv, { mapping: FOREIGN_MAPPING });
    if ("error" in result) throw result.error;
    expect(result.data.errors).toEqual(shown.errors);
    const stored = new Map((await contacts(ws.id)).map((c) => [c.email, c]));
    for (const row of shown.rows) {
      const { row: _n, note, tags, ...fields } = row;
      const contact = stored.get(row.email)!;
      for (const [key, value] of Object.entries(fields))
        if (value !== null) expect([row.email, key, contact[key]]).toEqual([row.email, key, value]);
      expect([...contact.tags].sort()).toEqual([...tags].sort());
      expect(contact.note).toBe(note);
    }
    expect(stored.get("ana@example.com")).toMatchObject({ first_name: "Ana", phone: "1" }); // an update keeps the rest
  });

  test("4.15 import mapping: the mapping an import used is proposed again for the same headers in any order, not for another set", async () => {
    const ws = await createWorkspace(db.sql);
    const byName = await preview(ws, FOREIGN);
    expect(byName.source).toBe("names");
    expect(byName.columns[0]).toEqual({ header: "Correo", target: { target: "skip" } });

    const result = await runImport(ws, FOREIGN, { mapping: FOREIGN_MAPPING });
    if ("error" in result) throw result.error;
    const [saved] =
      await db.sql`select headers, updated_by from import_mappings where workspace_id = ${ws.id}`;
    expect(saved).toEqual({ headers: FOREIGN.split("\n")[0].split(","), updated_by: ws.owner.id });

    // the same columns, reordered and spelt differently
    const reordered =
      "phone,INTERNO,comentario,grupo,etiquetas,ciudad,apellido,nombre,correo\n555,x,,,,,,,zo@example.com\n";
    const again = await preview(ws, reordered);
    expect(again.source).toBe("saved");
    expect(Object.fromEntries(again.columns.map((c) => [c.header.toLowerCase(), c.target]))).toEqual(
      Object.fromEntries(Object.entries(FOREIGN_MAPPING).map(([h, t]) => [h.toLowerCase(), t])),
    );
    expect(again.rows[0]).toMatchObject({ email: "zo@example.com", phone: null });

    const otherSet = await preview(ws, "Correo,Nombre\nzo@example.com,Zo\n");
    expect(otherSet.source).toBe("names");
    expect(otherSet.columns[0].target).toEqual({ target: "skip" });
  });

  test("4.15 import mapping: another workspace's saved mapping is never proposed, nor readable by its members", async () => {
    const a = await createWorkspace(db.sql);
    const b = await createWorkspace(db.sql);
    const result = await runImport(a, FOREIGN, { mapping: FOREIGN_MAPPING });
    if ("error" in result) throw result.error;
    expect((await preview(b, FOREIGN)).source).toBe("names");
    const seen = await withUser(b.owner.claims, (tx) => tx`select workspace_id from import_mappings`);
    expect(seen).toEqual([]);
    const member = await addMember(db.sql, a.id, "member");
    signIn(member.claims);
    const res = await previewRoute(request("/api/contacts/import/preview", FOREIGN));
    expect(res.status).toBe(200);
    expect((await res.json()).source).toBe("saved"); // a member of A sees A's
  });

  test("4.15 import mapping: still one atomic transaction: a bad row is skipped and reported, a failure half way leaves everything (the saved mapping too) as before", async () => {
    const ws = await createWorkspace(db.sql);
    const csv = `${FOREIGN}\nbroken,X,,,,,,,\n`;
    const before = await snapshot();
    const stopAtTags = (p: { phase: string }) => {
      if (p.phase === "tags") throw new Error("stopped half way");
    };
    await expect(runImport(ws, csv, { mapping: FOREIGN_MAPPING, onProgress: stopAtTags })).rejects.toThrow(
      "stopped half way",
    );
    expect(await snapshot()).toEqual(before);

    const result = await runImport(ws, csv, { mapping: FOREIGN_MAPPING });
    if ("error" in result) throw result.error;
    expect(result.data).toMatchObject({ created: 2, skipped: 1 });
    expect(result.data.errors).toEqual([
      { row: 4, email: "broken", reason: "Email is not a valid address." },
    ]);
  });

  test("4.15 import mapping: a large upload's job applies the mapping chosen at upload", async () => {
    const ws = await createWorkspace(db.sql);
    const queued = await withService((tx) =>
      queueContactImport(tx, {
        workspaceId: ws.id,
        userId: ws.owner.id,
        fileName: "big.csv",
        content: new TextEncoder().encode(FOREIGN),
        markSubscribed: false,
        uploaderIp: null,
        mapping: FOREIGN_MAPPING,
      }),
    );
    if ("error" in queued) throw queued.error;
    expect(await runContactImport(queued.data.id)).toEqual({
      status: "done",
      output: { status: "succeeded" },
    });
    expect((await contacts(ws.id)).map((c) => [c.email, c.first_name, c.city])).toEqual([
      ["ana@example.com", "Ana", "Madrid"],
      ["luis@example.com", "Luis", "Sevilla"],
    ]);
  });

  test("4.15 import mapping: the sample CSV imports by name, every column filled as its header says", async () => {
    const ws = await createWorkspace(db.sql);
    signIn(ws.owner.claims);
    const res = await sampleRoute(new Request("http://localhost:3000/api/contacts/import/sample"));
    expect(res.headers.get("content-disposition")).toContain("contacts-sample.csv");
    const shown = await preview(ws, await res.text());
    expect(shown.columns.every((c) => c.target.target !== "skip")).toBe(true);
    expect(shown).toMatchObject({ valid: 2, skipped: 0 });
    expect(shown.rows[0]).toMatchObject({
      email: "ada@example.com",
      birth_month: 12,
      tags: ["Donor", "Volunteer"],
    });
  });
});

describe("4.15 CSV import: the custom_field target (docs/decisions.md, 'Custom fields')", () => {
  async function withFields(ws: TestWorkspace) {
    await db.sql`insert into custom_fields (workspace_id, key, label, field_type, options) values
      (${ws.id}, 'member_since', 'Member since', 'date', '{}'),
      (${ws.id}, 'shirt', 'Shirt size', 'select', '{S,M,L}'),
      (${ws.id}, 'kids', 'Kids', 'number', '{}')`;
  }

  test("4.15 import mapping: a custom_field column is typed and checked by the custom fields' validator; a bad value skips its row with the field's message", async () => {
    const ws = await createWorkspace(db.sql);
    await withFields(ws);
    await createContact(db.sql, ws.id, { email: "old@example.com" });
    await db.sql`update contacts set custom_fields = '{"kids": 2}' where email = 'old@example.com' and workspace_id = ${ws.id}`;
    const csv = [
      "Correo,Alta,Talla,Hijos",
      "ana@example.com,2020-02-29,m,1",
      "old@example.com,,L,",
      "bad@example.com,2021-02-30,XL,",
    ].join("\n");
    const mapping: ImportMapping = {
      Correo: { target: "field", name: "email" },
      Alta: { target: "custom_field", key: "member_since" },
      Talla: { target: "custom_field", key: "shirt" },
      Hijos: { target: "custom_field", key: "kids" },
    };
    const shown = await preview(ws, csv, mapping);
    const result = await runImport(ws, csv, { mapping });
    if ("error" in result) throw result.error;
    expect(result.data).toMatchObject({ created: 1, updated: 1, skipped: 1 });
    expect(result.data.errors).toEqual([
      {
        row: 4,
        email: "bad@example.com",
        reason:
          "Member since must be a date (YYYY-MM-DD) (member_since). Shirt size: choose one of S, M, L (shirt).",
      },
    ]);
    const stored =
      await db.sql`select email, custom_fields from contacts where workspace_id = ${ws.id} order by email`;
    expect(stored).toEqual([
      { email: "ana@example.com", custom_fields: { member_since: "2020-02-29", shirt: "M", kids: 1 } },
      { email: "old@example.com", custom_fields: { kids: 2, shirt: "L" } }, // blank cells keep what was there
    ]);
    expect(shown.rows.map((r) => r.custom_fields)).toEqual([
      { member_since: "2020-02-29", shirt: "M", kids: 1 },
      { shirt: "L" },
    ]);
    expect(shown.errors).toEqual(result.data.errors);
  });

  test("4.15 import mapping: a custom field the workspace does not define is refused as invalid; a header named like a custom field is proposed for it", async () => {
    const ws = await createWorkspace(db.sql);
    await withFields(ws);
    const other = await createWorkspace(db.sql);
    const csv = "Email,Shirt size\nzed@example.com,S\n";
    const refusedMapping = await runImport(other, csv, {
      mapping: { "Shirt size": { target: "custom_field", key: "shirt" } },
    });
    expect("error" in refusedMapping && refusedMapping.error).toMatchObject({
      code: "invalid",
      message: 'There is no custom field "shirt".',
    });
    expect(await db.sql`select count(*)::int as n from contacts where workspace_id = ${other.id}`).toEqual([
      { n: 0 },
    ]);
    const proposed = await preview(ws, csv);
    expect(proposed.columns[1].target).toEqual({ target: "custom_field", key: "shirt" });
  });
});
