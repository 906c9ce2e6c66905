/**
 * A floor probe (docs/performance.md), never part of the app: `npm run bench -- floor-probes` copies it to
 * app/api/bench-floor/form/[formId]/route.ts for one build and removes it after the run.
 *
 * The least a new-contact form submission can do: the body read, parsed and validated as the
 * form route does, then the form and the per-IP limiter of spec 4.2.1 in one statement with its
 * own commit (`?part=read`), or (no part) that statement with the writes: the contact and the
 * submission, with none of spec 4.2's rules (no key check, no merge, no consent row, no audit).
 */
import { withServiceStatement } from "@/lib/db/doors";
import { submissionFields } from "@/lib/forms/submission-fields";
import { clientIp } from "@/lib/http/client-ip";
import { jsonError } from "@/lib/http/error-envelope";
import { parseBody } from "@/lib/http/parse-body";
import { FORM_BODY_LIMIT, readLimitedBody } from "@/lib/http/read-limited-body";
import { isUuid } from "@/lib/ids/uuid";
import { formRateLimitKey } from "@/lib/rate-limit/check-rate-limit";

export async function POST(request: Request, { params }: { params: Promise<{ formId: string }> }) {
  if (process.env.BENCH_FLOOR_PROBES !== "1") return new Response(null, { status: 404 });
  const { formId } = await params;
  if (!isUuid(formId)) return new Response(null, { status: 404 });
  const ip = clientIp(request.headers);
  const body = parseBody(
    request.headers.get("content-type"),
    await readLimitedBody(request, FORM_BODY_LIMIT),
  );
  if ("error" in body) return jsonError(body.error);
  const fields = submissionFields(body.data);
  if ("error" in fields) return jsonError(fields.error);
  const limiterKey = formRateLimitKey(formId, ip);

  if (new URL(request.url).searchParams.get("part") === "read") {
    const [row] = await withServiceStatement(
      (db) => db`
        select f.id, rl.allowed from public.forms f
        cross join lateral public.check_rate_limit(${limiterKey}, 5, 60) rl
        where f.id = ${formId}`,
    );
    return Response.json({ success: Boolean(row?.allowed) });
  }
  const { email, person, isSubscribed } = fields.data;
  const rows = await withServiceStatement(
    (db) => db`
      with form as (
        select f.id, f.workspace_id from public.forms f
        cross join lateral public.check_rate_limit(${limiterKey}, 5, 60) rl
        where f.id = ${formId} and rl.allowed
      ), contact as (
        insert into public.contacts (workspace_id, email, first_name, source, is_subscribed,
                                     opt_in_timestamp, opt_in_ip, opt_in_source)
        select workspace_id, ${email}, ${person.first_name ?? null}, 'form', ${isSubscribed},
               case when ${isSubscribed} then now() end, ${ip}, id::text
        from form
        on conflict (workspace_id, email) do nothing
        returning id, workspace_id
      )
      insert into public.form_submissions (workspace_id, form_id, contact_id, payload, ip_address, submission_type)
      select workspace_id, ${formId}, id, ${db.json(body.data as never)}, ${ip}, 'api_key' from contact
      returning contact_id`,
  );
  return Response.json({ success: rows.length === 1 });
}
