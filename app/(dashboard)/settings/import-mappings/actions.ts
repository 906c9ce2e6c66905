"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { memberAction } from "@/lib/adapters/member-action";
import { ADMIN_ROLES } from "@/lib/auth/context";
import { deleteSavedMapping, MAPPING_NOT_FOUND } from "@/lib/contacts/import/saved-mappings";
import { unwrap } from "@/lib/errors/app-error";
import type { FormState } from "@/lib/http/form-state";
import { uuidField } from "@/lib/ids/uuid";

/**
 * Settings → Import mappings (docs/decisions.md, "CSV import mappings"): owners and admins delete a
 * saved mapping, as custom fields; the id is looked up in the member's current workspace.
 */
export const deleteImportMappingAction = memberAction(
  z.object({ mappingId: uuidField(MAPPING_NOT_FOUND) }),
  async (db, input, ctx): Promise<FormState> => {
    const { id, headers } = unwrap(await deleteSavedMapping(db, { workspaceId: ctx.workspaceId, ...input }));
    ctx.audit.target("import_mapping", id).change({ headers }, null);
    return { success: "Mapping deleted." };
  },
  {
    roles: ADMIN_ROLES,
    forbidden: "Only owners and admins can delete import mappings.",
    audit: "import_mapping.deleted",
    after: () => revalidatePath("/settings/import-mappings"),
  },
);
