import "server-only";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { chosenWorkspace, memberIn, TWO_FACTOR_ENROLMENT, type MemberContext } from "@/lib/auth/context";
import { renewIfDue, signedIn, type SignedIn } from "@/lib/auth/session";
import { asServiceAtOnce, withService, withUser, type Db } from "@/lib/db/doors";
import { AppError } from "@/lib/errors/app-error";
import { clientIp } from "@/lib/http/client-ip";
import { stepUpFresh } from "@/lib/two-factor/step-up";
import type { Role } from "@/lib/workspaces/list-memberships";
import { AuditNote } from "./audit-note";
import type { ActionContext } from "./member-action";

export interface MemberDoorOptions {
  roles?: readonly Role[];
  forbidden?: string;
  stepUp?: boolean;
  /** "member": the member's own transaction (RLS decides); "service": a service transaction */
  door?: "member" | "service";
  /**
   * The workspace the request names (an admin route's `workspace_id`) instead of the one chosen
   * in the switcher: a caller who is not its member is refused `forbidden`.
   */
  workspaceId?: string;
}

/** How a caller who is not let in is answered: a page's redirect (actions) or an AppError (routes). */
export type Unadmitted = "redirect" | "refuse";

/** Who the session names when nobody is signed in, or the session no longer counts. */
const signedOut = (answer: Unadmitted): never => {
  if (answer === "redirect") redirect("/sign-in");
  throw new AppError("unauthenticated");
};

/**
 * The way into a member adapter's transaction. `open` runs a function in one transaction, as the
 * member (or as the service for `door: "service"`); `admit`, called first inside it, checks the
 * session's version and reads the member (memberIn, as the service), then the role and the
 * step-up, and gives the adapter's context. So the session check, the membership and the work
 * commit or roll back together in one transaction (docs/decisions.md, "One error type and the
 * adapters"). Nothing is read from the database before `open`: the session cookie is verified by
 * its signature, the address and the chosen workspace come from the request.
 */
export async function memberDoor(
  options: MemberDoorOptions,
  answer: Unadmitted = "redirect",
  request?: Request,
): Promise<{
  open: <T>(fn: (db: Db) => Promise<T>) => Promise<T>;
  admit: (db: Db) => Promise<ActionContext>;
}> {
  const session: SignedIn = (await signedIn()) ?? signedOut(answer);
  const chosen = options.workspaceId ?? (await chosenWorkspace());
  const ip = clientIp(request ? request.headers : await headers());
  const service = options.door === "service";
  const open = <T>(fn: (db: Db) => Promise<T>) => (service ? withService(fn) : withUser(session.claims, fn));
  const admit = async (db: Db): Promise<ActionContext> => {
    const read = () => memberIn(db, session, chosen);
    const member = service ? await read() : await asServiceAtOnce(db, session.claims, read);
    if (member === undefined) return signedOut(answer);
    if (options.workspaceId && member?.workspace.workspaceId !== options.workspaceId)
      throw new AppError("forbidden", options.forbidden);
    await renewIfDue(session);
    const admittedMember = admitted(member, options, answer);
    return {
      ...admittedMember,
      workspaceId: admittedMember.workspace.workspaceId,
      audit: new AuditNote(),
      prepared: undefined,
      ip,
    };
  };
  return { open, admit };
}

/** The member as the adapter's options allow them in, or the refusal. */
function admitted(
  member: MemberContext | null,
  options: MemberDoorOptions,
  answer: Unadmitted,
): MemberContext {
  if (member === null) {
    // signed in but in no workspace (they left or were removed): a page to create one
    if (answer === "redirect") redirect("/no-workspace");
    throw new AppError("forbidden", "Join or create a workspace first.");
  }
  if (member.twoFactorMissing) {
    if (answer === "redirect") redirect(TWO_FACTOR_ENROLMENT);
    throw new AppError("forbidden", "This workspace requires two-factor authentication. Turn it on first.");
  }
  if (options.roles && !options.roles.includes(member.workspace.role))
    throw new AppError("forbidden", options.forbidden);
  if (options.stepUp && !stepUpFresh(member.claims)) throw new AppError("step_up_required");
  return member;
}
