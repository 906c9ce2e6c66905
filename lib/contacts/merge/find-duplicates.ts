import type { Db } from "@/lib/db/doors";

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
 * contact_email_similarity, at least EMAIL_SIMILARITY). Both keys are indexed per workspace, so
 * the self-joins read index ranges. Newest pairs first; the older contact of a pair is `a`, the
 * one suggested to keep. Runs as the member: RLS limits it to their workspaces.
 */
export async function findDuplicates(
  db: Db,
  input: { workspaceId: string; page?: number },
): Promise<{ pairs: DuplicatePair[]; hasMore: boolean }> {
  const page = Math.max(1, Math.floor(input.page ?? 1));
  const rows = await db<{ a: DuplicateSide; b: DuplicateSide; reasons: DuplicatePair["reasons"] }[]>`
    with pairs as (
      select x.id as x_id, y.id as y_id, 'phone' as reason
      from public.contacts x
      join public.contacts y
        on y.workspace_id = x.workspace_id
       and public.contact_phone_key(y.phone) = public.contact_phone_key(x.phone)
       and y.id > x.id
      where x.workspace_id = ${input.workspaceId} and public.contact_phone_key(x.phone) is not null
      union all
      select x.id, y.id, 'name_email'
      from public.contacts x
      join public.contacts y
        on y.workspace_id = x.workspace_id
       and public.contact_name_key(y.first_name, y.last_name) = public.contact_name_key(x.first_name, x.last_name)
       and y.id > x.id
      where x.workspace_id = ${input.workspaceId}
        and public.contact_name_key(x.first_name, x.last_name) is not null
        and public.contact_email_similarity(x.email, y.email) >= ${EMAIL_SIMILARITY}
    ), grouped as (
      select x_id, y_id, array_agg(distinct reason order by reason) as reasons from pairs group by x_id, y_id
    )
    select
      case when x.created_at <= y.created_at then ${side("x")} else ${side("y")} end as a,
      case when x.created_at <= y.created_at then ${side("y")} else ${side("x")} end as b,
      g.reasons
    from grouped g
    join public.contacts x on x.id = g.x_id
    join public.contacts y on y.id = g.y_id
    order by greatest(x.created_at, y.created_at) desc, g.x_id, g.y_id
    limit ${DUPLICATES_PAGE_SIZE + 1} offset ${(page - 1) * DUPLICATES_PAGE_SIZE}`;

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
