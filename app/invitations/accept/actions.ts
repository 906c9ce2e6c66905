"use server";

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { acceptInvitationFlow } from "@/lib/auth/flows/account-flows";
import { chooseWorkspace, getClaims } from "@/lib/auth/session";
import { clientIp } from "@/lib/http/client-ip";
import type { FormState } from "@/lib/http/form-state";

/** The invited person accepts (a POST: opening the link alone changes nothing), then works there. */
export async function acceptInvitationAction(_prev: FormState, form: FormData): Promise<FormState> {
  const token = String(form.get("token") ?? "");
  const claims = await getClaims();
  if (!claims) redirect(`/sign-in?next=${encodeURIComponent(`/invitations/accept?token=${token}`)}`);
  const result = await acceptInvitationFlow({ token, userId: claims.sub }, clientIp(await headers()));
  if ("error" in result) return { message: result.error };
  await chooseWorkspace(result.data.workspaceId);
  redirect("/contacts");
}
