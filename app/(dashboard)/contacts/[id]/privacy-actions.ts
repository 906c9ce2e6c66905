"use server";

import { redirect } from "next/navigation";
import { requireMember } from "@/lib/auth/context";
import { isUuid } from "@/lib/ids/uuid";
import { CONTACT_NOT_FOUND } from "@/lib/contacts/types";
import type { FormState } from "@/lib/http/form-state";
import { eraseContactFlow } from "@/lib/privacy/flows/privacy-requests";

/** Issue 16 (GDPR art. 17): erase after the typed confirmation, then back to the list. */
export async function eraseContactAction(
  contactId: string,
  _prev: FormState,
  form: FormData,
): Promise<FormState> {
  const confirmation = String(form.get("confirmation") ?? "");
  if (!isUuid(contactId)) return { message: CONTACT_NOT_FOUND };
  const result = await eraseContactFlow(await requireMember(), { contactId, confirmation });
  if ("error" in result) return { errors: { confirmation: result.error }, values: { confirmation } };
  redirect("/contacts?erased=1");
}
