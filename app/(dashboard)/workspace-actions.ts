"use server";

import { redirect } from "next/navigation";
import { requireMember } from "@/lib/auth/context";
import { chooseWorkspace, getClaims } from "@/lib/auth/session";
import { withUser } from "@/lib/db/doors";
import { errorState, type FormState } from "@/lib/http/form-state";
import { createWorkspace } from "@/lib/workspaces/create-workspace";

/** Switches the current workspace; only to one the member belongs to. */
export async function switchWorkspaceAction(form: FormData): Promise<void> {
  const ctx = await requireMember();
  const id = String(form.get("workspaceId") ?? "");
  if (ctx.memberships.some((m) => m.workspaceId === id)) await chooseWorkspace(id);
  redirect("/contacts");
}

/** Creates a workspace owned by the signed-in user (who may be in none yet) and switches to it. */
export async function createWorkspaceAction(_prev: FormState, form: FormData): Promise<FormState> {
  const claims = await getClaims();
  if (!claims) redirect("/sign-in");
  const name = String(form.get("name") ?? "");
  const result = await withUser(claims, (db) => createWorkspace(db, { name }));
  if ("error" in result) return errorState(result, { values: { name }, fields: ["name"] });
  await chooseWorkspace(result.data.workspaceId);
  redirect("/contacts");
}
