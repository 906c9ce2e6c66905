import { asServiceForMember, type Db } from "@/lib/db/doors";
import { AppError } from "@/lib/errors/app-error";
import { MESSAGES } from "./member-permissions";

/**
 * The one way invitations are written and roles changed (docs/decisions.md, "The second factor holds
 * at the database"): members hold no INSERT or UPDATE on workspace_invitations and no UPDATE of
 * workspace_members.role, so a direct write through PostgREST can neither un-revoke an invitation,
 * keep it from expiring, choose its token, nor change a role past the app's step-up and audit. The
 * caller's role is checked by the flow first, as themself; `write` then runs as the service with
 * their claims kept (auth.uid() still names them), and each of its statements names the workspace
 * and repeats the role rule the dropped policies held, so the check and the write cannot drift apart.
 */
export function writeMembership<T>(db: Db, workspaceId: string, write: () => Promise<T>): Promise<T> {
  return asServiceForMember(db, workspaceId, () => new AppError("forbidden", MESSAGES.notAdmin), write);
}
