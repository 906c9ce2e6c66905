import type { Db } from "@/lib/db/doors";
import { DAY_MS, type DemoRandom } from "./demo-random";

const FIRST = [
  "Ada",
  "Grace",
  "Alan",
  "Katherine",
  "Linus",
  "Margaret",
  "Dennis",
  "Barbara",
  "Ken",
  "Frances",
  "Edsger",
  "Radia",
  "Tim",
  "Hedy",
  "John",
  "Mary",
  "Donald",
  "Sophie",
  "Guido",
  "Annie",
  "Niklaus",
  "Karen",
  "Vint",
  "Shafi",
  "Bjarne",
  "Lynn",
  "James",
  "Jean",
  "Leslie",
  "Carol",
];
const LAST = [
  "Lovelace",
  "Hopper",
  "Turing",
  "Johnson",
  "Torvalds",
  "Hamilton",
  "Ritchie",
  "Liskov",
  "Thompson",
  "Allen",
  "Dijkstra",
  "Perlman",
  "Berners-Lee",
  "Lamarr",
  "McCarthy",
  "Keller",
  "Knuth",
  "Wilson",
  "van Rossum",
  "Easley",
  "Wirth",
  "Sparck Jones",
  "Cerf",
  "Goldwasser",
  "Stroustrup",
  "Conway",
  "Gosling",
  "Sammet",
  "Lamport",
  "Shaw",
];
const CITIES = [
  ["Portland", "OR"],
  ["Austin", "TX"],
  ["Denver", "CO"],
  ["Madison", "WI"],
  ["Raleigh", "NC"],
];

/** How many demo contacts each source gets (spec 2.4.1), a few hundred in all. */
export const DEMO_SOURCES: [string, number][] = [
  ["manual", 40],
  ["form", 90],
  ["import", 80],
  ["ticketing", 30],
  ["payproc", 35],
  ["event", 35],
];

export interface DemoContact {
  id: string;
  email: string;
  source: string;
  is_subscribed: boolean;
}

/**
 * Contacts created over the last 90 days from every source, about half subscribed with
 * consent proof, some unsubscribed (with their 'unsubscribe' suppression), tags and notes.
 */
export async function seedDemoContacts(
  db: Db,
  input: { workspaceId: string; userId: string; domain: string; rnd: DemoRandom },
): Promise<DemoContact[]> {
  const { workspaceId: ws, rnd } = input;
  const now = Date.now();
  const rows = DEMO_SOURCES.flatMap(([source, count]) =>
    Array.from({ length: count }, () => {
      const first = rnd.pick(FIRST);
      const last = rnd.pick(LAST);
      const created = new Date(now - rnd.next() * 89 * DAY_MS - rnd.int(0, 3_600_000));
      const subscribed = rnd.chance(0.55);
      const unsubscribed = !subscribed && rnd.chance(0.25);
      const [city, state] = rnd.pick(CITIES);
      return {
        workspace_id: ws,
        first_name: first,
        last_name: last,
        source,
        phone: rnd.chance(0.5) ? `202555${String(rnd.int(0, 9999)).padStart(4, "0")}` : null,
        city,
        state,
        country: "US",
        created_at: created,
        updated_at: created,
        is_subscribed: subscribed,
        opt_in_timestamp: subscribed || unsubscribed ? created : null,
        opt_in_source:
          subscribed || unsubscribed ? (source === "import" ? "CSV Import" : "Manual Consent") : null,
        unsubscribed_at: unsubscribed
          ? new Date(created.getTime() + rnd.next() * (now - created.getTime()))
          : null,
      };
    }),
  ).map((r, i) => ({
    ...r,
    email: `${r.first_name}.${r.last_name}.${i}@${input.domain}`.toLowerCase().replace(/[^a-z0-9.@-]/g, ""),
  }));
  const contacts = await db<DemoContact[]>`
    insert into public.contacts ${db(rows)} returning id, email, source, is_subscribed`;

  const unsubscribed = rows.flatMap((r, i) => (r.unsubscribed_at ? [contacts[i].id] : []));
  if (unsubscribed.length)
    await db`insert into public.contact_suppressions (workspace_id, contact_id, reason)
             select ${ws}, unnest(${unsubscribed}::uuid[]), 'unsubscribe'`;

  const tags = await db<{ id: string; name: string }[]>`
    insert into public.tags ${db(["VIP", "Newsletter", "Customer", "Volunteer", "Press"].map((name) => ({ workspace_id: ws, name })))}
    returning id, name`;
  const links = contacts.flatMap((c) =>
    tags.filter(() => rnd.chance(0.22)).map((t) => ({ workspace_id: ws, contact_id: c.id, tag_id: t.id })),
  );
  if (links.length) await db`insert into public.contact_tags ${db(links)}`;
  const notes = contacts
    .filter(() => rnd.chance(0.1))
    .map((c) => ({
      workspace_id: ws,
      contact_id: c.id,
      type: "contact",
      content: "<p>Met at the spring fair; asked about volunteering.</p>",
      content_text: "Met at the spring fair; asked about volunteering.",
      created_by: input.userId,
    }));
  if (notes.length) await db`insert into public.notes ${db(notes)}`;
  return contacts;
}
