import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { ContactForm } from "@/components/contacts/contact-form";
import { updateContactAction } from "../../actions";
import { getContactByIdAction } from "../../actions";
import { notFoundUnlessUuid } from "@/lib/ids/not-found-unless-uuid";
import { requireMember } from "@/lib/auth/context";
import { listCustomFields } from "@/lib/contacts/custom-fields/list-custom-fields";
import { withReadUser } from "@/lib/db/doors";
import { customFieldInputs } from "@/components/contacts/custom-field-values";

export const metadata: Metadata = { title: "Edit contact" };

export default async function EditContactPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  notFoundUnlessUuid(id);
  const result = await getContactByIdAction(id);
  if (!("data" in result)) notFound(); // a refusal: not in this workspace
  const c = result.data.contact;
  const ctx = await requireMember();
  const fields = await withReadUser(ctx.claims, (db) => listCustomFields(db, ctx.workspace.workspaceId));
  const initial: Record<string, string> = {
    email: c.email,
    firstName: c.first_name ?? "",
    lastName: c.last_name ?? "",
    phone: c.phone ?? "",
    addressLine1: c.address_line1 ?? "",
    addressLine2: c.address_line2 ?? "",
    city: c.city ?? "",
    state: c.state ?? "",
    postalCode: c.postal_code ?? "",
    country: c.country ?? "",
    birthMonth: c.birth_month?.toString() ?? "",
    birthDay: c.birth_day?.toString() ?? "",
    locale: c.locale ?? "",
  };
  return (
    <>
      <h1>Edit {c.email}</h1>
      <ContactForm
        action={updateContactAction.bind(null, c.id)}
        initial={initial}
        mode="edit"
        cancelHref={`/contacts/${c.id}`}
        customFields={customFieldInputs(fields, c.custom_fields ?? {})}
      />
    </>
  );
}
