"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import { issueApiKey, issueApiKeySchema, type IssueKeyState } from "@/lib/api-keys/issue-api-key";
import { revokeApiKey } from "@/lib/api-keys/revoke-api-key";
import { refusalResult } from "@/lib/adapters/action-result";
import { memberAction } from "@/lib/adapters/member-action";
import { ADMIN_ROLES } from "@/lib/auth/context";
import { AppError, unwrap } from "@/lib/errors/app-error";
import { isUuid } from "@/lib/ids/uuid";
import { zonedDayRange } from "@/lib/time/format";

const admins = { roles: ADMIN_ROLES, forbidden: "Only owners and admins can manage API keys." } as const;

/**
 * Issues a key with its scopes and optional expiry (the end of the chosen day in the viewer's
 * time zone); the raw key comes back once, in this answer only (never in the audit row).
 */
export const issueApiKeyAction = memberAction(
  issueApiKeySchema,
  async (db, { name, scopes, expiresOn }, ctx): Promise<IssueKeyState> => {
    const expiresAt = expiresOn ? zonedDayRange(ctx.timeZone, null, expiresOn).end : null;
    const { data } = await issueApiKey(db, { workspaceId: ctx.workspaceId, name, scopes, expiresAt });
    ctx.audit.target("api_key", data.id).change(null, {
      name: data.name,
      scopes: data.scopes,
      expires_at: data.expires_at?.toISOString() ?? null,
    });
    return { key: data.key, success: `Key "${data.name}" created. Copy it now: it will not be shown again.` };
  },
  { ...admins, audit: "api_key.created", stepUp: true },
);

/**
 * Revokes a key, after a step-up (a stolen session must not cut a workspace's integrations off);
 * the page says whether it worked (any other refusal reads the same).
 */
export const revokeApiKeyAction = memberAction(
  z.object({ keyId: z.string().default("") }),
  async (db, { keyId }, ctx) => {
    if (!isUuid(keyId)) throw new AppError("not_found");
    const { id } = unwrap(await revokeApiKey(db, { workspaceId: ctx.workspaceId, keyId }));
    ctx.audit.target("api_key", id);
    return {};
  },
  {
    ...admins,
    audit: "api_key.revoked",
    stepUp: true,
    // step_up_required goes back to the dialog, which asks for the password or code and retries
    refusal: (error) =>
      error.code === "step_up_required" ? refusalResult(error) : redirect("/settings/api-keys?error=revoke"),
    after: () => redirect("/settings/api-keys?revoked=1"),
  },
);
