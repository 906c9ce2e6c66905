import "server-only";
import { unstable_rethrow } from "next/navigation";
import type { z } from "zod";
import type { MemberContext } from "@/lib/auth/context";
import type { AuditAction } from "@/lib/audit/audit-actions";
import type { Db } from "@/lib/db/doors";
import { AppError } from "@/lib/errors/app-error";
import { fieldErrors } from "@/lib/http/form-state";
import type { Role } from "@/lib/workspaces/list-memberships";
import { refusalResult } from "./action-result";
import { writeAudit, type AuditNote } from "./audit-note";
import { memberDoor } from "./member-door";
import { formValues, keptValues } from "./form-values";
import { refusalOf } from "./log-unexpected";

/** What a member action's function receives besides its transaction and its parsed input. */
export interface ActionContext<P = void> extends MemberContext {
  /** what `before` prepared outside the transaction (a provider's answer, a row read first) */
  prepared: P;
  /** the member's current workspace: every id from the client is looked up inside it */
  workspaceId: string;
  /** what the audit row says about this action (target, before, after) */
  audit: AuditNote;
  /** the caller's address (lib/http/client-ip.ts), read once per request */
  ip: string | null;
}

export interface MemberActionOptions<I, R, P = void> {
  /**
   * The audited action written, with the change, in the action's transaction, or `false` for
   * an action that changes no data and no access. A function picks the action from the input
   * and result (null: nothing to audit this time, e.g. nothing changed).
   */
  audit: AuditAction | false | ((input: I, result: R) => AuditAction | null);
  /** roles allowed; every member when omitted */
  roles?: readonly Role[];
  /** the refusal shown to a member of another role */
  forbidden?: string;
  /**
   * A dangerous action (privacy export and erasure, API keys, roles, webhook endpoints): the
   * session must have proved its owner within the step-up window (lib/two-factor/step-up.ts),
   * else `step_up_required` and nothing runs. A function decides from the parsed input, for an
   * action only some of whose inputs are dangerous (an invitation to admin, not to member).
   */
  stepUp?: boolean | ((input: I) => boolean);
  /** names of the positional arguments before the form (values bound in the component) */
  args?: readonly string[];
  /**
   * "member" (default): the member's own transaction, RLS decides. "service": a service
   * transaction for work members may not do row by row (automations), scoped by the code to
   * `ctx.workspaceId`; the role check above is then the only gate, so name `roles`.
   */
  door?: "member" | "service";
  /** how a refusal reads to this action's caller when not as `refusalResult` (action-result.ts) */
  refusal?: (error: AppError) => R;
  /**
   * Write the audit row before `fn` runs, for actions that end the actor's own access
   * (leaving a workspace): afterwards RLS would no longer let them write it.
   */
  auditFirst?: boolean;
  /**
   * Before the transaction opens (after the role and the input are checked): what must not
   * run inside it, e.g. a rate limit counted in a transaction of its own (a refusal must not
   * roll the count back) or a provider call. Throw an AppError to refuse.
   */
  before?: (input: I, ctx: ActionContext) => Promise<P>;
  /** after the commit: revalidatePath, refresh, redirect */
  after?: (result: R, input: I, ctx: ActionContext<P>) => void | Promise<void>;
}

/**
 * The one way a server action runs (docs/decisions.md, "One error type and the adapters"): parse the
 * arguments with `schema` (once: `fn` gets the result), then in one transaction the session's version,
 * the member (memberIn), the role, `fn` and its audit row; then `after`. An action with `before` checks
 * the member in a transaction of its own, runs `before`, then opens the work's. An AppError (thrown by
 * `fn`, or `unwrap` of a domain refusal) rolls the transaction back and becomes the caller's message;
 * anything else is logged once with a request id and answered with that reference.
 *
 * Called as a form action (`(prev, form)`, `(form)`, or with bound `args` first) the raw input
 * is the bound arguments plus the form's fields; called with one plain object, that object.
 */
export function memberAction<S extends z.ZodType, R, P = void>(
  schema: S,
  fn: (db: Db, input: z.output<S>, ctx: ActionContext<P>) => Promise<R>,
  options: MemberActionOptions<z.output<S>, R, P>,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- untrusted arguments, parsed by `schema`; forms post, components bind
): (...args: any[]) => Promise<R> {
  return async (...args: unknown[]) => {
    const { raw, isForm } = rawInput(args, options.args ?? []);
    const refuse = (error: AppError): R =>
      options.refusal
        ? options.refusal(error)
        : (refusalResult(error, isForm ? keptValues(raw) : undefined) as R);
    try {
      const parsed = schema.safeParse(raw);
      // read only once `accept` has let the member in, and the input has parsed
      const input = parsed.data as z.output<S>;
      const stepUp =
        typeof options.stepUp === "function" ? parsed.success && options.stepUp(input) : options.stepUp;
      const { open, admit } = await memberDoor({ ...options, stepUp });
      const accept = async (db: Db): Promise<ActionContext<P>> => {
        const ctx = await admit(db);
        if (!parsed.success) throw new InputRefused(parsed.error);
        return ctx as ActionContext<P>;
      };
      const work = async (db: Db, ctx: ActionContext<P>) => {
        const audit = (action: AuditAction | null | false) =>
          action ? writeAudit(db, ctx, action, { input, ip: ctx.ip }) : undefined;
        if (options.auditFirst && typeof options.audit === "string") await audit(options.audit);
        const result = await fn(db, input, ctx);
        if (!options.auditFirst)
          await audit(typeof options.audit === "function" ? options.audit(input, result) : options.audit);
        return result;
      };
      let ctx: ActionContext<P>;
      let result: R;
      if (options.before) {
        ctx = await open(accept);
        ctx.prepared = await options.before(input, ctx as unknown as ActionContext);
        result = await open((db) => work(db, ctx));
      } else {
        [ctx, result] = await open(async (db) => {
          const accepted = await accept(db);
          return [accepted, await work(db, accepted)] as const;
        });
      }
      await options.after?.(result, input, ctx);
      return result;
    } catch (error) {
      unstable_rethrow(error); // redirect(), notFound() and Next's own signals pass through
      if (error instanceof InputRefused) {
        // a bound argument is no field of the form: its refusal is the form's message
        const issues = error.zodError.issues;
        const bound = issues.find((issue) => options.args?.includes(String(issue.path[0])));
        if (isForm && !bound)
          return { errors: fieldErrors(error.zodError), values: keptValues(raw), code: "invalid" } as R;
        return refuse(new AppError("invalid", (bound ?? issues[0])?.message));
      }
      return refuse(refusalOf("server action", error));
    }
  };
}

/** The input did not parse: the member was checked first (a stranger learns nothing of the form). */
class InputRefused extends Error {
  constructor(readonly zodError: z.ZodError) {
    super("input refused");
  }
}

function rawInput(
  args: unknown[],
  names: readonly string[],
): { raw: Record<string, unknown>; isForm: boolean } {
  const form = args.find((arg): arg is FormData => arg instanceof FormData);
  const bound = Object.fromEntries(names.map((name, i) => [name, args[i]]));
  if (form) {
    // bound in the component, or sent as a hidden field of the form (a long list renders
    // cheaper without a bound action per row); a bound value wins
    const given = Object.entries(bound).filter(
      ([, value]) => typeof value !== "object" && value !== undefined,
    );
    return { raw: { ...formValues(form), ...Object.fromEntries(given) }, isForm: true };
  }
  if (names.length > 0) return { raw: bound, isForm: false };
  const [input] = args;
  return { raw: (input ?? {}) as Record<string, unknown>, isForm: false };
}
