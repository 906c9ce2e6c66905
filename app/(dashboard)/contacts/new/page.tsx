import type { Metadata } from "next";
import { ContactForm } from "@/components/contacts/contact-form";
import { requireMember } from "@/lib/auth/context";
import { createContactAction } from "../actions";
import { listCustomFields } from "@/lib/contacts/custom-fields/list-custom-fields";
import { withReadUser } from "@/lib/db/doors";
import { customFieldInputs } from "@/components/contacts/custom-field-values";

export const metadata: Metadata = { title: "New contact" };

export default async function NewContactPage() {
  const ctx = await requireMember();
  const fields = await withReadUser(ctx.claims, (db) => listCustomFields(db, ctx.workspace.workspaceId));
  return (
    <>
      <h1>New contact</h1>
      <ContactForm
        action={createContactAction}
        mode="create"
        cancelHref="/contacts"
        customFields={customFieldInputs(fields, {})}
      />
    </>
  );
}
