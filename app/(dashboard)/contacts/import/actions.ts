"use server";

import { z } from "zod";
import { memberAction } from "@/lib/adapters/member-action";
import { getContactImport } from "@/lib/contacts/import/list-contact-imports";
import { uuidSchema } from "@/lib/ids/uuid";

/** Where a background CSV import of the member's workspace is (polled by the import page). */
export const contactImportStatusAction = memberAction(
  z.object({ importId: uuidSchema }),
  (db, { importId }, ctx) => getContactImport(db, { workspaceId: ctx.workspaceId, importId }),
  { audit: false, args: ["importId"], refusal: () => null }, // a read
);
