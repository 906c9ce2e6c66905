import type { Metadata } from "next";
import { requireMember } from "@/lib/auth/context";

export const metadata: Metadata = { title: "Contacts" };

export default async function ContactsPage() {
  await requireMember();
  return (
    <>
      <h1>Contacts</h1>
      <div className="card empty">Nothing here yet.</div>
    </>
  );
}
