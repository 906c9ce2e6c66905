"use server";

import { redirect } from "next/navigation";
import { ADMIN_ROLES, NotAuthorizedError, withMember } from "@/lib/auth/context";
import { issueApiKey, issueApiKeySchema } from "@/lib/api-keys/issue-api-key";
import { revokeApiKey } from "@/lib/api-keys/revoke-api-key";
import { fieldErrors, type FormState } from "@/lib/http/form-state";

export interface IssueKeyState extends FormState {
  key?: string;
}

const NOT_ALLOWED = "Only owners and admins can manage API keys.";

/** Issues a key; the raw key comes back once, in this answer only. */
export async function issueApiKeyAction(_prev: IssueKeyState, form: FormData): Promise<IssueKeyState> {
  const values = { name: String(form.get("name") ?? "") };
  const parsed = issueApiKeySchema.safeParse(values);
  if (!parsed.success) return { errors: fieldErrors(parsed.error), values };
  try {
    const { data } = await withMember(
      (db, ctx) => issueApiKey(db, { workspaceId: ctx.workspace.workspaceId, name: parsed.data.name }),
      { roles: ADMIN_ROLES },
    );
    return { key: data.key, success: `Key "${data.name}" created. Copy it now: it will not be shown again.` };
  } catch (error) {
    if (error instanceof NotAuthorizedError) return { message: NOT_ALLOWED, values };
    throw error;
  }
}

export async function revokeApiKeyAction(_prev: FormState, form: FormData): Promise<FormState> {
  const keyId = String(form.get("keyId") ?? "");
  let ok = false;
  try {
    const result = await withMember(
      (db, ctx) => revokeApiKey(db, { workspaceId: ctx.workspace.workspaceId, keyId }),
      { roles: ADMIN_ROLES },
    );
    ok = "data" in result;
  } catch (error) {
    if (!(error instanceof NotAuthorizedError)) throw error;
  }
  redirect(ok ? "/settings/api-keys?revoked=1" : "/settings/api-keys?error=revoke");
}
