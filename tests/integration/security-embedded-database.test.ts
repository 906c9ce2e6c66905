import { afterAll, beforeAll, describe, expect, test } from "vitest";
import postgres from "postgres";
import { startEmbeddedDatabase, type EmbeddedDatabase } from "@/lib/db/embedded";

// The embedded database's socket (docs/decisions.md "The embedded database"): another process on
// this machine that does not hold the password reaches nothing, and writes nothing.
let embedded: EmbeddedDatabase;

beforeAll(async () => {
  embedded = await startEmbeddedDatabase({ password: "the-right-password" });
});
afterAll(async () => {
  await embedded?.stop();
});

/** Runs `statement` through a fresh connection to `url`: its rows, or the refusal's code. */
async function tryStatement(url: string, statement: string) {
  const sql = postgres(url, { max: 1, connect_timeout: 5, onnotice: () => {} });
  try {
    return { ok: true, rows: await sql.unsafe(statement) };
  } catch (error) {
    return { ok: false, code: (error as { code?: string }).code };
  } finally {
    await sql.end({ timeout: 1 });
  }
}

const withPassword = (password: string | null) => {
  const url = new URL(embedded.url);
  url.password = password ?? "";
  return url.toString();
};

describe("a local process without the embedded database's password", () => {
  test("connecting without the password, or with a wrong one, is refused and changes nothing", async () => {
    for (const password of [null, "postgres", "the-right-passwor", "the-right-password-and-more"])
      expect(
        await tryStatement(withPassword(password), "create table stolen (x int)"),
        String(password),
      ).toEqual({
        ok: false,
        code: "28P01",
      });
    const check = await tryStatement(embedded.url, "select to_regclass('public.stolen')::text as t");
    expect(check).toEqual({ ok: true, rows: [{ t: null }] });
  });

  test("the app's URL carries the password: its connection works, TLS is declined and it goes on", async () => {
    expect(new URL(embedded.url).password).toBe("the-right-password");
    expect(await tryStatement(embedded.url, "select current_user as u")).toEqual({
      ok: true,
      rows: [{ u: "postgres" }],
    });
    const preferTls = `${embedded.url}?sslmode=prefer`;
    expect(await tryStatement(preferTls, "select 1 as one")).toEqual({ ok: true, rows: [{ one: 1 }] });
  });
});
