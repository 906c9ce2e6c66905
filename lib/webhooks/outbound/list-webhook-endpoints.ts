import type { Db } from "@/lib/db/doors";

export interface WebhookEndpointRow {
  id: string;
  url: string;
  description: string | null;
  event_types: string[];
  enabled: boolean;
  failing_since: Date | null;
  disabled_reason: string | null;
  created_at: Date;
  /** deliveries of the last 24 hours */
  recent: { succeeded: number; failed: number; pending: number };
}

/** The workspace's endpoints with their last day's delivery counts (owners and admins, RLS). */
export async function listWebhookEndpoints(
  db: Db,
  input: {
    workspaceId: string;
    endpointId?: string;
    /** the REST API's cursor lists (docs/api.md): `limit` endpoints after this one's sort key */
    page?: { limit: number; after: { key: string; id: string } | null };
  },
): Promise<(WebhookEndpointRow & { sort_key: string })[]> {
  const after = input.page?.after;
  return db<(WebhookEndpointRow & { sort_key: string })[]>`
    select e.created_at::text as sort_key, e.id, e.url, e.description, e.event_types, e.enabled, e.failing_since, e.disabled_reason, e.created_at,
           jsonb_build_object(
             'succeeded', count(d.id) filter (where d.status = 'succeeded'),
             'failed', count(d.id) filter (where d.status = 'failed'),
             'pending', count(d.id) filter (where d.status = 'pending')) as recent
    from public.webhook_endpoints e
    left join public.webhook_deliveries d on d.endpoint_id = e.id and d.created_at > now() - interval '24 hours'
    where e.workspace_id = ${input.workspaceId}
      ${input.endpointId ? db`and e.id = ${input.endpointId}` : db``}
      ${after ? db`and (e.created_at, e.id) > (${after.key}::timestamptz, ${after.id}::uuid)` : db``}
    group by e.id
    order by e.created_at, e.id
    ${input.page ? db`limit ${input.page.limit + 1}` : db``}`;
}
