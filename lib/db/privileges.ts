import path from "node:path";
import type { Sql } from "./client";

/** The checked-in privilege manifest (`npm run db:privileges`). */
export const PRIVILEGE_MANIFEST = path.join(process.cwd(), "supabase", "privileges.json");

/** The roles a request from outside reaches the database as (README, Security; spec 5.4). */
export const OUTSIDE_ROLES = ["anon", "authenticated"] as const;
/** Who holds a privilege: one of the outside roles, or PUBLIC (every role, so both of them). */
export type Grantee = (typeof OUTSIDE_ROLES)[number] | "PUBLIC";
export type WorkspaceRole = "owner" | "admin" | "member";

/**
 * One privilege, as the catalog states it. `columns` only for column privileges (a table
 * privilege covers every column); `extension` stands for all the functions of an extension
 * (they are the extension's, not ours, and listing hundreds of them says nothing).
 */
export interface Privilege {
  kind: "database" | "schema" | "table" | "column" | "sequence" | "function" | "extension" | "role";
  role: Grantee;
  object: string;
  privilege: string;
  columns?: string[];
}

/** A manifest entry: a privilege, why it exists, and (table operations) who the policies admit. */
export interface ManifestEntry extends Privilege {
  /** Table operations in schema public: the workspace roles the RLS policies let through on a
   * row of their own workspace (hand-reviewed; the REST-attacker suite derives its expectations
   * from it). */
  admits?: WorkspaceRole[];
  reason: string;
}

/** The identity of an entry: everything but the reason and the admitted roles. */
export function privilegeKey(p: Privilege): string {
  return [p.kind, p.role, p.object, p.privilege, (p.columns ?? []).join(",")].join(" ");
}

const SYSTEM_SCHEMAS = `n.nspname not in ('pg_catalog', 'information_schema', 'pg_toast') and n.nspname !~ '^pg_(temp|toast_temp)_'`;

/**
 * Every privilege anon, authenticated or PUBLIC hold in the connected database, outside the
 * system schemas, read from the catalog ACLs (aclexplode; a null ACL is the object type's
 * default, acldefault, which for functions is EXECUTE to PUBLIC). Sorted by privilegeKey.
 */
export async function readPrivileges(sql: Sql): Promise<Privilege[]> {
  const rows = await sql<
    { kind: Privilege["kind"]; role: Grantee; object: string; privilege: string; columns: string[] | null }[]
  >`
    with grantees as (
      select oid, rolname as role from pg_roles where rolname in ('anon', 'authenticated')
      union all select 0, 'PUBLIC'
    ),
    acl as (
      select 'database'::text as kind, 'current database'::text as object, null::text as col,
             aclexplode(coalesce(d.datacl, acldefault('d', d.datdba))) as a
      from pg_database d where d.datname = current_database()
      union all
      select 'schema', n.nspname::text, null, aclexplode(coalesce(n.nspacl, acldefault('n', n.nspowner)))
      from pg_namespace n where ${sql.unsafe(SYSTEM_SCHEMAS)}
      union all
      select case when c.relkind = 'S' then 'sequence' else 'table' end,
             format('%I.%I', n.nspname, c.relname), null,
             aclexplode(coalesce(c.relacl, acldefault((case when c.relkind = 'S' then 's' else 'r' end)::"char", c.relowner)))
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where c.relkind in ('r', 'p', 'v', 'm', 'f', 'S') and ${sql.unsafe(SYSTEM_SCHEMAS)}
      union all
      select 'column', format('%I.%I', n.nspname, c.relname), a.attname::text, aclexplode(a.attacl)
      from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
      where not a.attisdropped and a.attacl is not null and ${sql.unsafe(SYSTEM_SCHEMAS)}
      union all
      select case when e.extname is null then 'function' else 'extension' end,
             coalesce(e.extname::text, format('%I.%I(%s)', n.nspname, p.proname, oidvectortypes(p.proargtypes))), null,
             aclexplode(coalesce(p.proacl, acldefault('f', p.proowner)))
      from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      left join pg_depend dep on dep.classid = 'pg_proc'::regclass and dep.objid = p.oid and dep.deptype = 'e'
      left join pg_extension e on e.oid = dep.refobjid
      where ${sql.unsafe(SYSTEM_SCHEMAS)}
    ),
    held as (
      select distinct acl.kind, g.role, acl.object,
             (acl.a).privilege_type || case when (acl.a).is_grantable then ' WITH GRANT OPTION' else '' end as privilege,
             acl.col
      from acl join grantees g on g.oid = (acl.a).grantee
    )
    select kind, role, object, privilege,
           case when kind = 'column' then array_agg(col order by col) end as columns
    from held group by kind, role, object, privilege
    union all
    -- membership in another role carries its privileges (Supabase's authenticator is the other way round)
    select 'role', r.rolname, g.rolname, 'MEMBER', null
    from pg_auth_members m join pg_roles r on r.oid = m.member join pg_roles g on g.oid = m.roleid
    where r.rolname in ('anon', 'authenticated')`;
  return rows
    .map(({ columns, ...p }) => (columns ? { ...p, columns } : p))
    .sort((x, y) => compare(privilegeKey(x), privilegeKey(y)));
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The manifest for `catalog`: one entry per privilege, in catalog order, keeping the reason
 * and admitted roles of the entries `previous` already had; a new entry has an empty reason.
 */
export function mergeManifest(catalog: Privilege[], previous: ManifestEntry[]): ManifestEntry[] {
  const known = new Map(previous.map((e) => [privilegeKey(e), e]));
  return catalog.map((p) => {
    const old = known.get(privilegeKey(p));
    return { ...p, ...(old?.admits ? { admits: old.admits } : {}), reason: old?.reason ?? "" };
  });
}

/** The manifest as the checked-in text: one entry per line, so a diff shows one line per change. */
export function manifestText(entries: ManifestEntry[]): string {
  return "[\n" + entries.map((e) => "  " + JSON.stringify(e)).join(",\n") + "\n]\n";
}
