import { describe, expect, test } from "vitest";
import { setupTestDatabase } from "../helpers/db";
import { createWorkspace } from "../helpers/factories";
import { signIn } from "../helpers/member-session";

// The composer's "A/B test" section (docs/decisions.md, "A/B tests of broadcasts"), through the
// server action the dashboard calls: variants and settings stored with the draft; bad input is
// refused beside its field and nothing is stored.
const broadcasts = await import("@/app/(dashboard)/broadcasts/actions");

const db = setupTestDatabase();

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.append(key, value);
  return data;
}

const BASE = { subject: "Hello", body: "News {{unsubscribe_url}}", format: "markdown", abEnabled: "on" };
const variants = (n: number) =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [`abSubject${i}`, `Subject ${i}`]));
const SETTINGS = { abShare: "25", abMetric: "clicks", abHours: "6" };

const countOf = async (table: "broadcasts" | "broadcast_variants", workspaceId: string) =>
  (await db.sql`select count(*)::int as n from ${db.sql(table)} where workspace_id = ${workspaceId}`)[0].n;

describe("the composer's A/B test section", () => {
  test("a draft with three variants, a 25% share, clicks and six hours is stored with them", async () => {
    const ws = await createWorkspace(db.sql);
    signIn(ws.owner.claims);
    await broadcasts
      .createBroadcastAction(
        {},
        form({ ...BASE, ...variants(3), abPreheader1: "Only this week", abSenderName2: "Ada", ...SETTINGS }),
      )
      .catch(() => null); // the redirect to the new draft
    const [b] = await db.sql`select id, ab_test_share, ab_winner_metric, ab_decide_after_hours from broadcasts
                             where workspace_id = ${ws.id}`;
    expect(b).toMatchObject({ ab_test_share: 25, ab_winner_metric: "clicks", ab_decide_after_hours: 6 });
    const rows = await db.sql`select position, subject, preheader, sender_name from broadcast_variants
                              where broadcast_id = ${b.id} order by position`;
    expect(rows).toEqual([
      { position: 0, subject: "Subject 0", preheader: null, sender_name: null },
      { position: 1, subject: "Subject 1", preheader: "Only this week", sender_name: null },
      { position: 2, subject: "Subject 2", preheader: null, sender_name: "Ada" },
    ]);
  });

  test.each([
    ["one variant", { ...variants(1), ...SETTINGS }, "abVariants", "An A/B test has 2 to 5 variants."],
    ["six variants", { ...variants(6), ...SETTINGS }, "abVariants", "An A/B test has 2 to 5 variants."],
    [
      "a share of 60",
      { ...variants(2), ...SETTINGS, abShare: "60" },
      "abShare",
      "The test share is 10 to 50 percent of the audience.",
    ],
    [
      "no share",
      { ...variants(2), ...SETTINGS, abShare: "" },
      "abShare",
      "The test share is 10 to 50 percent of the audience.",
    ],
    [
      "an empty subject",
      { ...variants(2), abSubject1: " ", ...SETTINGS },
      "abVariants",
      "Write the variant's subject.",
    ],
    [
      "0 hours",
      { ...variants(2), ...SETTINGS, abHours: "0" },
      "abHours",
      "Decide after 1 to 168 hours (a week).",
    ],
  ])("%s is refused beside its field and nothing is stored", async (_name, fields, field, message) => {
    const ws = await createWorkspace(db.sql);
    signIn(ws.owner.claims);
    const state = await broadcasts.createBroadcastAction(
      {},
      form({ ...BASE, ...(fields as Record<string, string>) }),
    );
    expect(state.errors?.[field] ?? state.message).toBe(message);
    expect(await countOf("broadcasts", ws.id)).toBe(0);
    expect(await countOf("broadcast_variants", ws.id)).toBe(0);
  });

  test("without the section switched on, the variant fields are ignored", async () => {
    const ws = await createWorkspace(db.sql);
    signIn(ws.owner.claims);
    const { abEnabled: _off, ...base } = BASE;
    await broadcasts.createBroadcastAction({}, form({ ...base, ...variants(1) })).catch(() => null);
    expect(await countOf("broadcasts", ws.id)).toBe(1);
    expect(await countOf("broadcast_variants", ws.id)).toBe(0);
  });
});

describe("the composer's other languages (docs/decisions.md, 'Recipient languages')", () => {
  const PLAIN = { subject: "Hello", body: "News {{unsubscribe_url}}", format: "markdown" };

  test("a language written in is stored with the draft; a language left empty is none", async () => {
    const ws = await createWorkspace(db.sql);
    signIn(ws.owner.claims);
    await broadcasts
      .createBroadcastAction(
        {},
        form({
          ...PLAIN,
          translationSubject_es: "Hola",
          translationBody_es: "Noticias {{unsubscribe_url}}",
          translationSubject_fr: "",
          translationBody_fr: "",
        }),
      )
      .catch(() => null); // the redirect to the new draft
    const [b] = await db.sql`select translations from broadcasts where workspace_id = ${ws.id}`;
    expect(Object.keys(b.translations)).toEqual(["es"]);
    expect(b.translations.es).toMatchObject({ subject: "Hola", body: "Noticias {{unsubscribe_url}}" });
    expect(b.translations.es.body_html).toContain("Noticias");
  });

  test("a translation with an unknown merge tag, or with an A/B test, is refused and nothing is stored", async () => {
    const ws = await createWorkspace(db.sql);
    signIn(ws.owner.claims);
    const tagged = await broadcasts.createBroadcastAction(
      {},
      form({ ...PLAIN, translationSubject_de: "Hallo", translationBody_de: "Hallo {{frist_name}}" }),
    );
    expect(tagged.errors?.["translations.de.body"]).toMatch(/frist_name/);
    const both = await broadcasts.createBroadcastAction(
      {},
      form({
        ...BASE,
        ...variants(2),
        ...SETTINGS,
        translationSubject_es: "Hola",
        translationBody_es: "Noticias",
      }),
    );
    expect(both.errors?.ab_test).toMatch(/one language/);
    expect(await countOf("broadcasts", ws.id)).toBe(0);
  });
});
