/**
 * The e2e app's own database, for arranging what the UI of this branch cannot create (a
 * contact in a given state) and for asserting stored state. Same address as scripts/e2e-server.ts:
 * `<db>_e2e_<port>` on DATABASE_URL's server, else the embedded database on port + 20000, with the
 * password `npm start` keeps in its DATA_DIR (.data/e2e-<port>/db-password).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import postgres from "postgres";

const port = Number(process.env.E2E_PORT ?? 3100);

export function appDatabaseUrl(): string {
  const base = process.env.DATABASE_URL;
  if (!base) {
    const file = path.join(process.cwd(), ".data", `e2e-${port}`, "db-password");
    const password = encodeURIComponent(readFileSync(file, "utf8").trim());
    return `postgres://postgres:${password}@127.0.0.1:${process.env.EMBEDDED_DB_PORT ?? port + 20000}/postgres`;
  }
  const u = new URL(base);
  u.pathname = `/${u.pathname.slice(1) || "postgres"}_e2e_${port}`;
  return u.toString();
}

export async function withAppDb<T>(fn: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const sql = postgres(appDatabaseUrl(), { max: 1, onnotice: () => {} });
  try {
    return await fn(sql);
  } finally {
    await sql.end();
  }
}

/** A contact in the workspace owned by `ownerEmail` (the one that signed up). */
export async function createContactFor(
  ownerEmail: string,
  fields: Record<string, unknown> = {},
  suppressions: string[] = [],
): Promise<{ id: string; email: string }> {
  return withAppDb(async (sql) => {
    const [ws] = await sql`
      select m.workspace_id from workspace_members m join auth.users u on u.id = m.user_id
      where u.email = ${ownerEmail} and m.role = 'owner' limit 1`;
    const email = `contact-${Date.now()}-${Math.random().toString(36).slice(2, 7)}@example.test`;
    const [c] =
      await sql`insert into contacts ${sql({ workspace_id: ws.workspace_id, email, ...fields } as never)} returning id, email`;
    for (const reason of suppressions)
      await sql`insert into contact_suppressions (contact_id, reason) values (${c.id}, ${reason})`;
    return { id: c.id, email: c.email };
  });
}

export async function contactConsent(id: string) {
  return withAppDb(async (sql) => {
    const [c] = await sql`
      select is_subscribed, unsubscribed_at, opt_in_source,
             array(select reason from contact_suppressions s where s.contact_id = contacts.id order by reason) as suppressions
      from contacts where id = ${id}`;
    return c;
  });
}

/**
 * Seeds the demo workspace (lib/seed/demo.ts, as `npm start` does on an empty database) into
 * the e2e app's database, as the system, under a fresh owner address.
 */
export async function seedDemoWorkspace(password: string) {
  const { seedDemo } = await import("../../../lib/seed/demo");
  const stamp = `${Date.now()}-${Math.random().toString(36).slice(2, 7)}`;
  return withAppDb((sql) =>
    sql.begin(async (tx) => {
      await tx`select set_config('role', 'service_role', true), set_config('request.jwt.claims', '', true)`;
      return seedDemo(tx as never, password, {
        email: `demo-${stamp}@example.test`,
        memberEmail: `member-${stamp}@example.test`,
      });
    }),
  );
}

/** The email events a provider would report for the sends of a broadcast (the report's input). */
export async function fakeBroadcastEvents(
  broadcastSubject: string,
  events: { type: string; link_url?: string }[],
): Promise<number> {
  return withAppDb(async (sql) => {
    const sends = await sql`
      select s.id, s.workspace_id, s.broadcast_id from email_sends s join broadcasts b on b.id = s.broadcast_id
      where b.subject = ${broadcastSubject} and s.status in ('sent', 'outbox')`;
    let n = 0;
    for (const send of sends)
      for (const [i, event] of events.entries()) {
        await sql`
          insert into email_events (workspace_id, email_send_id, broadcast_id, type, occurred_at, link_url, svix_id)
          values (${send.workspace_id}, ${send.id}, ${send.broadcast_id}, ${event.type},
                  now() + make_interval(mins => ${i * 5}), ${event.link_url ?? null},
                  ${`e2e-${send.id}-${i}`})`;
        n += 1;
      }
    return n;
  });
}

/** The broadcast's status, by its subject (unique in a spec's workspace). */
export async function broadcastStatus(subject: string): Promise<string | undefined> {
  return withAppDb(
    async (sql) => (await sql`select status from broadcasts where subject = ${subject}`)[0]?.status,
  );
}
