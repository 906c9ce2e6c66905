import { describe, expect, test } from "vitest";
import { setupTestDatabase } from "../helpers/db";
import { createWorkspace } from "../helpers/factories";
import { createForm, storedCounts, submit, type SubmitOptions } from "../helpers/forms";

const db = setupTestDatabase();

const NOTHING = { contacts: 0, submissions: 0, pending: 0, notes: 0, emails: 0 };
const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((p) => (typeof p === "string" ? Buffer.from(p) : Buffer.from(p))));

const hostile: [string, SubmitOptions, number][] = [
  ["email is a number", { json: { email: 42 } }, 400],
  ["email is an object", { json: { email: { $ne: "" } } }, 400],
  ["email is an array", { json: { email: ["a@example.test"] } }, 400],
  ["first_name is an object", { json: { email: "a@example.test", first_name: { x: 1 } } }, 400],
  ["phone is a number", { json: { email: "a@example.test", phone: 2025550143 } }, 400],
  ["is_subscribed is a number", { json: { email: "a@example.test", is_subscribed: 1 } }, 400],
  ["opt_in_source is an array", { json: { email: "a@example.test", opt_in_source: ["x"] } }, 400],
  ["the body is a JSON string", { json: "email=a@example.test" }, 400],
  ["the body is JSON null", { raw: "null", contentType: "application/json" }, 400],
  ["a huge first name", { json: { email: "a@example.test", first_name: "A".repeat(101) } }, 400],
  ["a huge email", { json: { email: `${"a".repeat(250)}@example.test` } }, 400],
  ["a huge message", { json: { email: "a@example.test", message: "m".repeat(10_001) } }, 400],
  ["a huge body", { form: { email: "a@example.test", filler: "x".repeat(65_536) } }, 413],
  [
    "a script in the first name",
    { json: { email: "a@example.test", first_name: "<script>alert(1)</script>" } },
    400,
  ],
  [
    "HTML in the last name",
    { form: { email: "a@example.test", last_name: '<img src=x onerror="alert(1)">' } },
    400,
  ],
  ["markup in the email", { json: { email: "<script>@example.test" } }, 400],
  ["markup in opt_in_source", { json: { email: "a@example.test", opt_in_source: "<b>x</b>" } }, 400],
  ["control characters in a name", { json: { email: "a@example.test", first_name: "Ada\u0007" } }, 400],
  ["a NUL character in an extra field", { json: { email: "a@example.test", extra: "a\u0000b" } }, 400],
  [
    "a lone surrogate (JSON escape)",
    { raw: '{"email":"a@example.test","first_name":"\\ud800"}', contentType: "application/json" },
    400,
  ],
  [
    "invalid UTF-8 bytes in JSON",
    {
      raw: bytes('{"email":"a@example.test","first_name":"', [0xff, 0xfe], '"}'),
      contentType: "application/json",
    },
    400,
  ],
  [
    "invalid UTF-8 bytes, URL-encoded",
    { raw: "email=a%40example.test&first_name=%FF%FE", contentType: "application/x-www-form-urlencoded" },
    400,
  ],
  [
    "broken percent-encoding",
    { raw: "email=a%40example.test&first_name=%E0%A4%A", contentType: "application/x-www-form-urlencoded" },
    400,
  ],
  [
    "absurd nesting",
    {
      raw: `{"email":"a@example.test","x":${"[".repeat(5000)}${"]".repeat(5000)}}`,
      contentType: "application/json",
    },
    400,
  ],
  ["an XML body", { raw: "<email>a@example.test</email>", contentType: "application/xml" }, 415],
  ["no content type", { raw: '{"email":"a@example.test"}' }, 415],
];

describe("hostile input is answered with 4xx and stores nothing", () => {
  test.each(hostile)("4.2 hostile input: %s", async (_name, options, status) => {
    const ws = await createWorkspace(db.sql);
    const form = await createForm(db.sql, ws.id, { require_verification: false });
    const res = await submit(form.id, options);
    expect(res.status).toBe(status);
    const body = await res.json();
    expect(body.success).toBe(false);
    expect(typeof body.error).toBe("string");
    expect(await storedCounts(db.sql, ws.id)).toEqual(NOTHING);
  });

  test("4.2: a '__proto__' key is stored as plain data and changes nothing else", async () => {
    const ws = await createWorkspace(db.sql);
    const form = await createForm(db.sql, ws.id);
    const res = await submit(form.id, {
      raw: "email=p%40example.test&__proto__=x&constructor=y",
      contentType: "application/x-www-form-urlencoded",
    });
    expect(res.status).toBe(200);
    const [row] = await db.sql`select payload from form_submissions where form_id = ${form.id}`;
    expect(row.payload).toMatchObject({ email: "p@example.test", constructor: "y" });
  });

  test("4.2: names with apostrophes, accents and non-Latin scripts are accepted as written", async () => {
    const ws = await createWorkspace(db.sql);
    const form = await createForm(db.sql, ws.id);
    const res = await submit(form.id, {
      json: { email: "zoe@example.test", first_name: "Zoë-Anne", last_name: "O'Brien 山田" },
    });
    expect(res.status).toBe(200);
    const [row] = await db.sql`select first_name, last_name from contacts where workspace_id = ${ws.id}`;
    expect(row).toEqual({ first_name: "Zoë-Anne", last_name: "O'Brien 山田" });
  });
});
