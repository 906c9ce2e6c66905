"use server";

import { revalidatePath } from "next/cache";
import { ADMIN_ROLES, NotAuthorizedError, withMember } from "@/lib/auth/context";
import { fieldErrors, type FormState } from "@/lib/http/form-state";
import { connectionForm } from "@/lib/payments/schemas";
import { deletePayprocConnection, savePayprocConnection } from "@/lib/payments/save-payproc-connection";

const ADMINS_ONLY = "Only owners and admins can change the payment connection.";

export async function saveConnectionAction(_prev: FormState, form: FormData): Promise<FormState> {
  const values = Object.fromEntries([...form].map(([k, v]) => [k, String(v)]));
  const parsed = connectionForm.safeParse(values);
  if (!parsed.success) return { errors: fieldErrors(parsed.error), values };
  try {
    const result = await withMember(
      (db, ctx) => savePayprocConnection(db, { workspaceId: ctx.workspace.workspaceId, ...parsed.data }),
      { roles: ADMIN_ROLES },
    );
    if ("error" in result) return { errors: { payprocAccountId: result.error }, values };
  } catch (error) {
    if (error instanceof NotAuthorizedError) return { message: ADMINS_ONLY, values };
    throw error;
  }
  revalidatePath("/settings/payments");
  return { success: "The payment connection is saved.", values };
}

export async function disconnectAction(_prev: FormState, _form: FormData): Promise<FormState> {
  try {
    await withMember((db, ctx) => deletePayprocConnection(db, ctx.workspace.workspaceId), {
      roles: ADMIN_ROLES,
    });
  } catch (error) {
    if (error instanceof NotAuthorizedError) return { message: ADMINS_ONLY };
    throw error;
  }
  revalidatePath("/settings/payments");
  return { success: "Disconnected. New purchases will no longer be recorded." };
}
