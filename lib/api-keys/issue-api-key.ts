import type { FormState } from "@/lib/http/form-state";
import { z } from "zod";
import { asService, type Db } from "@/lib/db/doors";
import { AppError } from "@/lib/errors/app-error";
import { API_SCOPES, type ApiScope } from "@/lib/api/v1/scopes";
import { hashApiKey, newApiKey } from "./hash-api-key";

/** The issue form's answer: the raw key, this once. */
export interface IssueKeyState extends FormState {
  key?: string;
}

/** The scopes a key may hold (docs/api.md), with what each lets the key do, for the issue form. */
export const SCOPE_LABELS: Record<ApiScope, string> = {
  "contacts:read":
    "Read contacts, their tags, notes and consent (no payments, forms, events, emails or consent IP addresses)",
  "contacts:write": "Create, change and delete contacts, tags and notes",
  "consent:write": "Subscribe and unsubscribe contacts (with proof)",
  "events:read": "Read events and registrations (and the public events list, and the tickets' public key)",
  "events:write": "Check tickets in at the door (who scanned them and when is recorded)",
  "transactions:read": "Read a contact's transactions and refunds (also on the timeline and in segments)",
  "transactions:write": "Record refunds",
  "forms:read": "Read forms and their submissions (also on the timeline and in segments)",
  "webhooks:write":
    "Subscribe webhook endpoints to the workspace's events the key's read scopes cover (each event carries its data), and unsubscribe them",
  "email:read":
    "Read broadcasts, emails sent and their opens and clicks (also on the timeline and in segments)",
  "email:write":
    "Create broadcasts, send or schedule them to the workspace's subscribed contacts, and cancel them",
  "campaigns:read": "Read campaigns, their steps and their enrollments (each contact's step and state)",
  "campaigns:write":
    "Create, change, publish, pause and archive campaigns, and enroll contacts in them (which sends the campaign's emails)",
};

export const issueApiKeySchema = z.object({
  name: z.string().trim().min(1, "Name the key (where it is used).").max(100, "Use at most 100 characters."),
  /** checkboxes: one value, several, or none */
  scopes: z
    .preprocess(
      (v) => (v === undefined || v === "" ? [] : Array.isArray(v) ? v : [v]),
      z.array(z.enum(API_SCOPES, { error: "Choose scopes from the list." })),
    )
    .refine((v) => v.length > 0, "Choose at least one scope.")
    .transform((v) => API_SCOPES.filter((s) => v.includes(s))),
  /** a date input: the key works through the end of that day in the viewer's time zone */
  expiresOn: z
    .string()
    .optional()
    .transform((v) => v?.trim() || null)
    .refine(
      (v) => v === null || /^\d{4}-\d{2}-\d{2}$/.test(v),
      "Enter a date, or leave it empty for no expiry.",
    ),
});

/**
 * Issues a workspace API key with its scopes (docs/api.md) and an optional expiry: only its
 * digest is stored; the raw key is returned once, to be shown once. Without scopes it is the
 * public events key it always was (`events:read`, as the migration gave older keys). Owners and
 * admins only: checked as the caller, then the row is written through the service door
 * (docs/decisions.md, "The database is the boundary": no member writes a digest).
 */
export async function issueApiKey(
  db: Db,
  input: { workspaceId: string; name: string; scopes?: readonly ApiScope[]; expiresAt?: Date | null },
): Promise<{ data: { id: string; name: string; key: string; scopes: ApiScope[]; expires_at: Date | null } }> {
  if (!(await isAdminOf(db, input.workspaceId))) throw new AppError("forbidden", NOT_ADMIN);
  if (input.expiresAt && input.expiresAt.getTime() <= Date.now())
    throw new AppError("invalid", "The expiry must be in the future.", { field: "expiresOn" });
  const key = newApiKey();
  const scopes = [...(input.scopes ?? ["events:read"])];
  const [row] = await asService(
    db,
    () => db`
      insert into public.api_keys (workspace_id, name, key_hash, scopes, expires_at)
      values (${input.workspaceId}, ${input.name}, ${hashApiKey(key)}, ${scopes}, ${input.expiresAt ?? null})
      returning id, name, scopes, expires_at`,
  );
  return { data: { id: row.id, name: row.name, key, scopes: row.scopes, expires_at: row.expires_at } };
}

export const NOT_ADMIN = "Only owners and admins can manage API keys.";

/** Whether the caller (as the transaction's identity) is an owner or admin of the workspace. */
export async function isAdminOf(db: Db, workspaceId: string): Promise<boolean> {
  const [{ admin }] =
    await db`select public.has_workspace_role(${workspaceId}, array['owner', 'admin']) as admin`;
  return admin === true;
}
