import type { Db } from "@/lib/db/doors";
import type { AccountProvisioner } from "@/lib/auth/provision-account";
import type { Role } from "./list-memberships";
import { callerRole, isAdmin, MESSAGES, refusal } from "./member-permissions";
import { addMemberSchema, invalid, type AddMemberInput, type Result } from "./schemas";

export interface AddedMember {
  userId: string;
  email: string;
  role: Role;
  /** Set when the account was created here (local provider): shown once to the admin. */
  temporaryPassword?: string;
  /** Set when Supabase sent the person an invitation email. */
  invited?: boolean;
}

/** The email has no account yet: the caller may add it once one is provisioned. */
export interface NoAccount {
  noAccount: true;
  email: string;
}

/**
 * One transaction as the signed-in member (spec 5.4 roles): Admin+ add the account with this
 * email to the workspace with a role; only owners add owners; someone already in the
 * workspace is reported, not duplicated. Answers NoAccount when no such account exists.
 */
export async function addMember(db: Db, input: AddMemberInput): Promise<Result<AddedMember> | NoAccount> {
  const parsed = addMemberSchema.safeParse(input);
  if (!parsed.success) return invalid(parsed.error);
  const { workspaceId, email, role } = parsed.data;

  const caller = await callerRole(db, workspaceId);
  if (!isAdmin(caller)) return { error: MESSAGES.notAdmin };
  if (role === "owner" && caller !== "owner") return { error: MESSAGES.ownerToAdd, field: "role" };

  const [{ userId }] = await db`select public.find_user_id_by_email(${workspaceId}, ${email}) as "userId"`;
  if (!userId) return { noAccount: true, email };

  try {
    const inserted = await db.savepoint(
      (sp) => sp`
      insert into public.workspace_members (workspace_id, user_id, role)
      values (${workspaceId}, ${userId}, ${role})
      on conflict (workspace_id, user_id) do nothing
      returning user_id`,
    );
    if (inserted.length === 0) return { error: MESSAGES.alreadyMember(email), field: "email" };
  } catch (error) {
    return refusal(error, { lastOwner: MESSAGES.lastOwnerDemote, forbidden: MESSAGES.notAdmin });
  }
  return { data: { userId, email, role } };
}

/**
 * The whole add-by-email operation. `asMember` runs a function in a transaction as the
 * signed-in member (withMember). When the email has no account, `accounts` provisions
 * one (local provider: a user with a temporary password; Supabase: an invitation; or a
 * refusal asking the person to sign up first), then the membership is added in a second
 * member transaction. Should that fail, an account created here is discarded again.
 */
export async function addMemberByEmail(
  asMember: <T>(fn: (db: Db) => Promise<T>) => Promise<T>,
  accounts: AccountProvisioner,
  input: AddMemberInput,
): Promise<Result<AddedMember>> {
  const first = await asMember((db) => addMember(db, input));
  if (!("noAccount" in first)) return first;

  const account = await accounts.provision(first.email);
  if ("error" in account) return { error: account.error, field: "email" };
  let second: Result<AddedMember> | NoAccount;
  try {
    second = await asMember((db) => addMember(db, input));
  } catch (error) {
    if (account.created) await accounts.discard(account.userId);
    throw error;
  }
  if ("data" in second)
    return {
      data: { ...second.data, temporaryPassword: account.temporaryPassword, invited: account.invited },
    };
  if (account.created) await accounts.discard(account.userId);
  return "error" in second ? second : { error: "The account could not be created. Try again." };
}
