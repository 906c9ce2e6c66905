"use server";

import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { requireMember } from "@/lib/auth/context";
import { WORKSPACE_COOKIE } from "@/lib/auth/session";

/** Switches the current workspace; only to one the member belongs to. */
export async function switchWorkspaceAction(form: FormData): Promise<void> {
  const ctx = await requireMember();
  const id = String(form.get("workspaceId") ?? "");
  if (ctx.memberships.some((m) => m.workspaceId === id)) {
    (await cookies()).set(WORKSPACE_COOKIE, id, { httpOnly: true, sameSite: "lax", path: "/" });
  }
  redirect("/contacts");
}
