import type { Db } from "@/lib/db/doors";
import { TAG_SEPARATOR } from "./import-staging";

export interface ApplyImportInput {
  workspaceId: string;
  markSubscribed: boolean;
  uploaderIp: string | null;
  /** the importing member (notes' author, consent actor); null for the service identity */
  actorUserId: string | null;
  onPhase?: (phase: "contacts" | "tags" | "notes") => void;
}

export interface ApplyImportCounts {
  created: number;
  updated: number;
  unchanged: number;
  subscribed: number;
  consentKept: number;
  consentSkippedComplaint: number;
  tagsCreated: number;
  tagsAttached: number;
  notesAdded: number;
}

/**
 * Spec 4.15 CSV import, the writes: set-based statements over the staged rows.
 * - A row for a new email inserts every provided field (source 'import'); a row for an
 *   existing email updates only the columns that are non-empty in the CSV. An email that
 *   appears several times in the file is applied in file order (occurrence 1, then 2, ...),
 *   so a later row updates what an earlier one wrote, by the same rule.
 * - 'Mark as Subscribed': consent proof (opt_in_source 'CSV Import', the uploader's IP, the
 *   time) for contacts not already cleanly subscribed, whose consent is kept; never for a
 *   contact with a 'complaint' suppression (spec 3.3).
 * - Missing tags are created and attached (conflicts ignored); notes become 'contact' notes.
 * No diff-and-audit (4.10 excludes CSV import).
 */
export async function applyImport(db: Db, input: ApplyImportInput): Promise<ApplyImportCounts> {
  const ws = input.workspaceId;
  const sub = input.markSubscribed;
  const consent = db`(${sub} and not (c.is_subscribed and c.unsubscribed_at is null)
    and not exists (select 1 from public.contact_suppressions s where s.contact_id = c.id and s.reason = 'complaint'))`;

  input.onPhase?.("contacts");
  await db`
    create temp table contact_import_batch on commit drop as
    select r.*, row_number() over (partition by r.email order by r.row_number) as occurrence
    from contact_import_rows r`;
  await db`create temp table contact_import_touched (contact_id uuid, inserted boolean, consented boolean) on commit drop`;
  const [{ rounds }] = await db<{ rounds: number }[]>`
    select coalesce(max(occurrence), 0)::int as rounds from contact_import_batch`;
  await db`analyze contact_import_batch`;

  for (let occurrence = 1; occurrence <= rounds; occurrence++) {
    await db`
      with up as (
        insert into public.contacts as c (
          workspace_id, email, first_name, last_name, phone, address_line1, address_line2, city, state,
          postal_code, country, birth_month, birth_day, source,
          is_subscribed, opt_in_timestamp, opt_in_source, opt_in_ip, custom_fields)
        select ${ws}, b.email, b.first_name, b.last_name, b.phone, b.address_line1, b.address_line2, b.city,
          b.state, b.postal_code, b.country, b.birth_month, b.birth_day, 'import',
          ${sub}, case when ${sub} then now() end, case when ${sub} then 'CSV Import' end,
          case when ${sub} then ${input.uploaderIp}::inet end, coalesce(b.custom_fields, '{}')
        from contact_import_batch b
        where b.occurrence = ${occurrence}
        on conflict (workspace_id, email) do update set
          first_name = coalesce(excluded.first_name, c.first_name),
          last_name = coalesce(excluded.last_name, c.last_name),
          phone = coalesce(excluded.phone, c.phone),
          address_line1 = coalesce(excluded.address_line1, c.address_line1),
          address_line2 = coalesce(excluded.address_line2, c.address_line2),
          city = coalesce(excluded.city, c.city),
          state = coalesce(excluded.state, c.state),
          postal_code = coalesce(excluded.postal_code, c.postal_code),
          country = coalesce(excluded.country, c.country),
          birth_month = coalesce(excluded.birth_month, c.birth_month),
          birth_day = coalesce(excluded.birth_day, c.birth_day),
          is_subscribed = c.is_subscribed or ${consent},
          opt_in_timestamp = case when ${consent} then now() else c.opt_in_timestamp end,
          opt_in_source = case when ${consent} then 'CSV Import' else c.opt_in_source end,
          opt_in_ip = case when ${consent} then excluded.opt_in_ip else c.opt_in_ip end,
          unsubscribed_at = case when ${consent} then null else c.unsubscribed_at end,
          -- custom field columns set the keys they carry, as the other columns (docs/decisions.md, "Custom fields")
          custom_fields = c.custom_fields || excluded.custom_fields
        -- only rows that change: an identical row leaves the contact (and updated_at) alone
        where (excluded.first_name is not null and excluded.first_name is distinct from c.first_name)
           or (excluded.last_name is not null and excluded.last_name is distinct from c.last_name)
           or (excluded.phone is not null and excluded.phone is distinct from c.phone)
           or (excluded.address_line1 is not null and excluded.address_line1 is distinct from c.address_line1)
           or (excluded.address_line2 is not null and excluded.address_line2 is distinct from c.address_line2)
           or (excluded.city is not null and excluded.city is distinct from c.city)
           or (excluded.state is not null and excluded.state is distinct from c.state)
           or (excluded.postal_code is not null and excluded.postal_code is distinct from c.postal_code)
           or (excluded.country is not null and excluded.country is distinct from c.country)
           or (excluded.birth_month is not null and excluded.birth_month is distinct from c.birth_month)
           or (excluded.birth_day is not null and excluded.birth_day is distinct from c.birth_day)
           or (excluded.custom_fields <> '{}' and c.custom_fields || excluded.custom_fields <> c.custom_fields)
           or ${consent}
        returning c.id, (c.xmax = 0) as inserted,
          (${sub} and c.opt_in_source = 'CSV Import' and c.opt_in_timestamp = now()) as consented
      )
      insert into contact_import_touched select * from up`;
  }

  // every staged email now has a contact: map emails to ids once, for tags and notes
  await db`
    create temp table contact_import_ids on commit drop as
    select b.email, c.id as contact_id
    from (select distinct email from contact_import_batch) b
    join public.contacts c on c.workspace_id = ${ws} and c.email = b.email`;
  await db`analyze contact_import_ids`;

  const [counts] = await db<Omit<ApplyImportCounts, "tagsCreated" | "tagsAttached" | "notesAdded">[]>`
    with t as (
      select contact_id, bool_or(inserted) as inserted, bool_or(consented) as consented
      from contact_import_touched group by contact_id
    )
    select
      (select count(*) from t where inserted)::int as created,
      (select count(*) from t where not inserted)::int as updated,
      ((select count(*) from contact_import_ids) - (select count(*) from t))::int as unchanged,
      (select count(*) from t where consented)::int as subscribed,
      (case when ${sub} then (
        select count(*) from contact_import_ids i join public.contacts c on c.id = i.contact_id
        where c.is_subscribed and c.unsubscribed_at is null
          and not exists (select 1 from t where t.contact_id = i.contact_id and t.consented))
       else 0 end)::int as "consentKept",
      (case when ${sub} then (
        select count(*) from contact_import_ids i
        join public.contact_suppressions s on s.contact_id = i.contact_id and s.reason = 'complaint')
       else 0 end)::int as "consentSkippedComplaint"`;

  if (sub) {
    // the new consent supersedes an earlier unsubscribe: its soft suppression goes (spec 8.3)
    await db`
      delete from public.contact_suppressions s using contact_import_touched t
      where t.consented and s.contact_id = t.contact_id and s.reason = 'unsubscribe'`;
    await db`
      insert into public.consent_events (workspace_id, contact_id, action, flow, source, ip, actor_user_id)
      select ${ws}, t.contact_id, 'subscribed', 'csv_import', 'CSV Import', ${input.uploaderIp}::inet, ${input.actorUserId}
      from contact_import_touched t where t.consented`;
  }

  input.onPhase?.("tags");
  const tags = await importTags(db, ws);

  input.onPhase?.("notes");
  const notes = await db`
    insert into public.notes (workspace_id, contact_id, type, content, content_text, created_by)
    select ${ws}, i.contact_id, 'contact', b.note_html, b.note_text, ${input.actorUserId}
    from contact_import_batch b join contact_import_ids i on i.email = b.email
    where b.note_text is not null
    order by b.row_number`;

  return { ...counts, ...tags, notesAdded: notes.count };
}

/** Creates the tags the workspace lacks (matched case-insensitively) and attaches them. */
async function importTags(db: Db, ws: string): Promise<{ tagsCreated: number; tagsAttached: number }> {
  await db`
    create temp table contact_import_tags on commit drop as
    select b.email, t.name, b.row_number, t.position
    from contact_import_batch b, unnest(string_to_array(b.tags, ${TAG_SEPARATOR})) with ordinality as t(name, position)
    where b.tags is not null`;
  const created = await db`
    insert into public.tags (workspace_id, name)
    select ${ws}, n.name
    from (select distinct on (lower(name)) name from contact_import_tags
          order by lower(name), row_number, position) n -- a new tag is spelt as first in the file
    where not exists (select 1 from public.tags t where t.workspace_id = ${ws} and lower(t.name) = lower(n.name))
    on conflict (workspace_id, name) do nothing`;
  const attached = await db`
    insert into public.contact_tags (contact_id, tag_id, workspace_id)
    select i.contact_id, t.id, ${ws}
    from contact_import_tags it
    join contact_import_ids i on i.email = it.email
    join (select distinct on (lower(name)) id, name from public.tags
          where workspace_id = ${ws} order by lower(name), created_at, id) t on lower(t.name) = lower(it.name)
    order by i.contact_id, t.id -- in key order: each page of the primary key is visited once
    on conflict (contact_id, tag_id) do nothing`;
  return { tagsCreated: created.count, tagsAttached: attached.count };
}
