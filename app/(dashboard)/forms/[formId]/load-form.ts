import "server-only";
import { notFound } from "next/navigation";
import { requireMember, type MemberContext } from "@/lib/auth/context";
import { withUser, type Db } from "@/lib/db/doors";
import { notFoundUnlessUuid } from "@/lib/ids/not-found-unless-uuid";
import { getForm } from "@/lib/forms/list-forms";

type Form = NonNullable<Awaited<ReturnType<typeof getForm>>>;

/**
 * A form page's data: the form of the member's workspace named in the URL and what `more`
 * reads beside it, in one transaction; a malformed or unknown id is a 404.
 */
export async function loadForm<T>(
  formId: string,
  more: (db: Db, input: { workspaceId: string; formId: string }) => Promise<T>,
): Promise<{ ctx: MemberContext; form: Form; data: T }> {
  notFoundUnlessUuid(formId);
  const ctx = await requireMember();
  const workspaceId = ctx.workspace.workspaceId;
  const loaded = await withUser(ctx.claims, async (db) => {
    const form = await getForm(db, { workspaceId, formId });
    return form ? { form, data: await more(db, { workspaceId, formId }) } : null;
  });
  if (!loaded) notFound();
  return { ctx, ...loaded };
}
