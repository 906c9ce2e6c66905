import type { Metadata } from "next";
import { ContactForm } from "@/components/contacts/contact-form";
import { requireMember } from "@/lib/auth/context";
import { createContactAction } from "../actions";

export const metadata: Metadata = { title: "New contact" };

export default async function NewContactPage() {
  await requireMember();
  return (
    <>
      <h1>New contact</h1>
      <ContactForm action={createContactAction} mode="create" cancelHref="/contacts" />
    </>
  );
}
