import type { Metadata } from "next";
import Link from "next/link";
import { ImportWizard } from "@/components/contacts/import-wizard";
import { requireMember } from "@/lib/auth/context";
import { BROWSER_IMPORT_MAX_BYTES } from "@/lib/contacts/import-contacts-csv";

export const metadata: Metadata = { title: "Import contacts" };

export default async function ImportPage() {
  await requireMember();
  return (
    <>
      <p>
        <Link href="/contacts">← All contacts</Link>
      </p>
      <h1>Import contacts from CSV</h1>
      <p className="hint">
        A row whose email is already in the workspace updates that contact, but only with the columns that are
        filled in. New emails become new contacts (source &lsquo;import&rsquo;). Tags (comma-separated) are
        created when missing; a Notes column becomes a note on the contact. Invalid rows are skipped and
        listed in the report. Nothing is saved unless the whole file goes in.
      </p>
      <ImportWizard maxBytes={BROWSER_IMPORT_MAX_BYTES} />
    </>
  );
}
