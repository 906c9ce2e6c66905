import { asService, type Db } from "@/lib/db/doors";

/** How close two local parts of emails must be (pg_trgm similarity, 0 to 1) for a name match. */
export const EMAIL_SIMILARITY = 0.4;
export const DUPLICATES_PAGE_SIZE = 50;

export interface DuplicateSide {
  id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  phone: string | null;
  created_at: Date;
}

export interface DuplicatePair {
  a: DuplicateSide;
  b: DuplicateSide;
  /** why they look like one person: the same phone, and/or the same name with similar emails */
  reasons: ("phone" | "name_email")[];
}

/**
 * Candidate pairs for a merge (docs/decisions.md, "Merging contacts"): two contacts of the
 * workspace with the same phone number (spec 4.10's normalisation, contact_phone_key) or the same
 * normalised name (contact_name_key) and similar emails (pg_trgm similarity of the local parts,
 * contact_email_similarity, at least EMAIL_SIMILARITY). Newest pairs first, found from the
 * newest contact backwards: each contact of the workspace, in created_at order (an index), is
 * matched against the older contacts with its phone or name key (indexed per workspace), and the
 * scan stops once the page is full, so a page costs what it reads, not all pairs of the
 * workspace (a common name shared by a thousand contacts is half a million pairs). A pair is
 * listed once, by its newer contact; the older one is `a`, the one suggested to keep. A pair marked
 * "Not a duplicate" is left out (docs/decisions.md, "Merging contacts"). Called in
 * the member's transaction: a workspace the member cannot see lists nothing.
 */
export async function findDuplicates(
  db: Db,
  input: { workspaceId: string; page?: number },
): Promise<{ pairs: DuplicatePair[]; hasMore: boolean }> {
  const page = Math.max(1, Math.floor(input.page ?? 1));
  // RLS would keep the key functions out of the index conditions (they are not leakproof, so
  // they run after the policy, row by row: minutes at 100,000 contacts). The member's access to
  // the workspace is checked as the member, then the pairs are read as the service, scoped to it.
  const [visible] = await db`select 1 from public.workspaces where id = ${input.workspaceId}`;
  if (!visible) return { pairs: [], hasMore: false };
  const rows = await asService(
    db,
    () => db<{ a: DuplicateSide; b: DuplicateSide; reasons: DuplicatePair["reasons"] }[]>`
    select ${side("y")} as a, ${side("x")} as b, m.reasons
    from public.contacts x
    cross join lateral (
      select r.y_id, array_agg(r.reason order by r.reason) as reasons
      from (
        select y.id as y_id, 'phone' as reason
        from public.contacts y
        where y.workspace_id = x.workspace_id
          and public.contact_phone_key(y.phone) = public.contact_phone_key(x.phone)
          and (y.created_at, y.id) < (x.created_at, x.id)
        union all
        select y.id, 'name_email'
        from public.contacts y
        where y.workspace_id = x.workspace_id
          and public.contact_name_key(y.first_name, y.last_name) = public.contact_name_key(x.first_name, x.last_name)
          and (y.created_at, y.id) < (x.created_at, x.id)
          and public.contact_email_similarity(x.email, y.email) >= ${EMAIL_SIMILARITY}
      ) r
      group by r.y_id
    ) m
    join public.contacts y on y.id = m.y_id
    where x.workspace_id = ${input.workspaceId}
      -- not a pair a member marked "Not a duplicate" (dismiss-duplicate.ts), by the pair's unique
      -- index; out here, once per pair listed, not inside the lateral once per contact scanned
      and not exists (
        select 1 from public.duplicate_dismissals d
        where d.workspace_id = x.workspace_id
          and least(d.contact_id, d.other_contact_id) = least(x.id, m.y_id)
          and greatest(d.contact_id, d.other_contact_id) = greatest(x.id, m.y_id))
    order by x.created_at desc, x.id desc, m.y_id
    limit ${DUPLICATES_PAGE_SIZE + 1} offset ${(page - 1) * DUPLICATES_PAGE_SIZE}`,
  );

  function side(alias: "x" | "y") {
    const t = db(alias);
    return db`jsonb_build_object('id', ${t}.id, 'email', ${t}.email, 'first_name', ${t}.first_name,
      'last_name', ${t}.last_name, 'phone', ${t}.phone, 'created_at', ${t}.created_at)`;
  }

  const pairs = rows.slice(0, DUPLICATES_PAGE_SIZE).map((r) => ({
    a: { ...r.a, created_at: new Date(r.a.created_at) },
    b: { ...r.b, created_at: new Date(r.b.created_at) },
    reasons: r.reasons,
  }));
  return { pairs, hasMore: rows.length > DUPLICATES_PAGE_SIZE };
}
