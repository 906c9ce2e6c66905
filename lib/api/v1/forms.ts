import { z } from "zod";
import { formExists } from "@/lib/forms/form-exists";
import { listFormSubmissionsAfter } from "@/lib/forms/list-form-submissions";
import { listForms } from "@/lib/forms/list-forms";
import { defineOperation, invalid, notFound } from "./define";
import { idParams, iso, keysetList, mustExist, timestamp } from "./keyset";
import { listSchema, pageQuerySchema } from "./pagination";
import { ok } from "./route";

export const formSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    allowed_domains: z.array(z.string()),
    has_key: z.boolean().meta({ description: "Whether the form has a key (the key itself is never shown)." }),
    require_verification: z.boolean(),
    captcha_required: z.boolean(),
    success_redirect_url: z.string().nullable(),
    submissions: z.number().int(),
    pending: z.number().int().meta({ description: "Submissions waiting for their email confirmation." }),
    last_submission_at: timestamp.nullable(),
    created_at: timestamp,
  })
  .meta({ id: "Form" });
export const formListSchema = listSchema(formSchema).meta({ id: "FormList" });

export const submissionSchema = z
  .object({
    id: z.string(),
    contact_id: z.string().nullable(),
    contact_email: z.string().nullable(),
    contact_name: z.string().nullable(),
    payload: z.record(z.string(), z.unknown()).meta({ description: "The fields as submitted." }),
    ip_address: z.string().nullable(),
    submission_type: z.enum(["direct", "verified_email", "api_key"]),
    created_at: timestamp,
  })
  .meta({ id: "FormSubmissionRecord" });
export const submissionListSchema = listSchema(submissionSchema).meta({ id: "FormSubmissionRecordList" });

/** GET /api/v1/forms: the forms page's list (with counts), newest first, by cursor. */
export const list = defineOperation({
  method: "get",
  path: "/api/v1/forms",
  operationId: "listForms",
  scope: "forms:read",
  summary: "List forms",
  description: "The workspace's lead-capture forms with their submission counts, newest first.",
  query: pageQuerySchema,
  success: { status: 200, schema: formListSchema, description: "A page of forms." },
  errors: [invalid],
  async handler({ db, workspaceId, query: q }) {
    return ok(
      await keysetList(
        "forms:created_at:desc",
        q,
        "timestamptz",
        (page) => listForms(db, workspaceId, page),
        (f) => ({
          id: f.id,
          name: f.name,
          allowed_domains: f.allowed_domains,
          has_key: f.has_key,
          require_verification: f.require_verification,
          captcha_required: f.captcha_required,
          success_redirect_url: f.success_redirect_url,
          submissions: f.submissions,
          pending: f.pending,
          last_submission_at: iso(f.last_submission_at),
          created_at: f.created_at.toISOString(),
        }),
      ),
    );
  },
});

/** GET /api/v1/forms/{id}/submissions: as the form's submissions page lists them, newest first, by cursor. */
export const listSubmissions = defineOperation({
  method: "get",
  path: "/api/v1/forms/{id}/submissions",
  operationId: "listFormSubmissions",
  scope: "forms:read",
  summary: "List a form's submissions",
  description: "Applied submissions, newest first, with the contact each one reached.",
  params: idParams,
  query: pageQuerySchema,
  success: { status: 200, schema: submissionListSchema, description: "A page of submissions." },
  errors: [invalid, notFound],
  async handler({ db, workspaceId, params, query: q }) {
    const formId = params.id;
    mustExist(await formExists(db, { workspaceId, formId }));
    const read = (page: { limit: number; after: { key: string; id: string } | null }) =>
      listFormSubmissionsAfter(db, { workspaceId, formId, ...page });
    return ok(
      await keysetList("submissions:created_at:desc", q, "timestamptz", read, (s) => ({
        id: s.id,
        contact_id: s.contact_id,
        contact_email: s.contact_email,
        contact_name: s.contact_name,
        payload: (s.payload && typeof s.payload === "object" ? s.payload : {}) as Record<string, unknown>,
        ip_address: s.ip_address,
        submission_type: s.submission_type,
        created_at: s.created_at.toISOString(),
      })),
    );
  },
});
