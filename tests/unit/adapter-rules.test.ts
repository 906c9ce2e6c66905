import tsParser from "@typescript-eslint/parser";
import { RuleTester } from "eslint";
import { describe, it } from "vitest";
import { adaptersOnly, transactionsInFlows } from "@/eslint-rules/adapter-rules.mjs";

// The ESLint rules that keep the adapters without gaps (docs/decisions.md, "One error type and the
// adapters"), read on the syntax tree: eslint.config.mjs applies them to app/, components/ and lib/.

RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

const tester = new RuleTester({ languageOptions: { parser: tsParser } });
const ROUTE = "app/api/things/[id]/route.ts";
const ACTIONS = "app/(dashboard)/things/actions.ts";

tester.run(
  "adapters/adapters-only: every route method and server action is built by an adapter",
  adaptersOnly,
  {
    valid: [
      { filename: ROUTE, code: 'export const GET = publicRoute({ name: "x" }, async () => new Response());' },
      { filename: ROUTE, code: 'export const POST = memberRoute({ name: "x", audit: false }, fn);' },
      {
        filename: ROUTE,
        code: 'export const GET = serviceRoute({ name: "x" }, fn);\nexport const dynamic = "force-dynamic";',
      },
      { filename: ROUTE, code: 'export const POST = userRoute({ name: "step-up" }, fn);' },
      // a constant beside the handlers is no method
      { filename: ROUTE, code: "export const maxDuration = 60;\nexport const GET = publicRoute(o, f);" },
      {
        filename: ACTIONS,
        code: '"use server";\nexport const a = memberAction(schema, fn, { audit: false });\nexport const b = userAction("x", schema, fn);\nexport type T = string;',
      },
      {
        filename: ACTIONS,
        code: '"use server";\nexport const signIn = publicAction("sign in", schema, fn);',
      },
      // a module without the directive, and a component, may export what they like and catch
      {
        filename: "app/(dashboard)/things/helpers.ts",
        code: "export function a() { try { b(); } catch { c(); } }",
      },
      { filename: "components/thing.tsx", code: "export default function Thing() { return null; }" },
    ],
    invalid: [
      {
        filename: ROUTE,
        code: "export async function GET(request: Request) { return new Response(); }",
        errors: [{ messageId: "route" }],
      },
      {
        filename: ROUTE,
        code: "export const POST = async () => new Response();",
        errors: [{ messageId: "route" }],
      },
      {
        filename: ROUTE,
        code: "const handler = publicRoute(o, f);\nexport { handler as GET };",
        errors: [{ messageId: "route" }],
      },
      {
        filename: ROUTE,
        code: "export const DELETE = wrap(publicRoute(o, f));",
        errors: [{ messageId: "route" }],
      },
      {
        filename: ROUTE,
        code: "export const GET = publicRoute(o, async () => { try { return a(); } catch { return b(); } });",
        errors: [{ messageId: "tryCatch" }],
      },
      // nor does a helper in a route file catch
      {
        filename: ROUTE,
        code: "export const GET = publicRoute(o, f);\nfunction helper() { try { a(); } finally { b(); } }",
        errors: [{ messageId: "tryCatch" }],
      },
      {
        filename: ACTIONS,
        code: '"use server";\nexport async function getContactsAction() { return []; }',
        errors: [{ messageId: "action" }],
      },
      {
        filename: ACTIONS,
        code: '"use server";\nexport const a = async () => ({});',
        errors: [{ messageId: "action" }],
      },
      {
        filename: ACTIONS,
        code: '"use server";\nconst a = memberAction(s, f, o);\nexport { a };',
        errors: [{ messageId: "action" }],
      },
      {
        filename: ACTIONS,
        code: '"use server";\nexport const a = memberAction(s, async () => { try { x(); } catch { y(); } }, o);',
        errors: [{ messageId: "tryCatch" }],
      },
    ],
  },
);

const LIB = "lib/email/send-broadcast.ts";

tester.run("adapters/transactions-in-flows: domain functions never open a transaction", transactionsInFlows, {
  valid: [
    {
      filename: LIB,
      code: 'import type { Db } from "@/lib/db/doors";\nexport async function f(db: Db) { await db`select 1`; }',
    },
    // the identity switches inside a transaction the caller opened are no new transaction
    {
      filename: LIB,
      code: 'import { asService, type Db } from "@/lib/db/doors";\nexport const f = (db: Db) => asService(db, g);',
    },
    // a name that only looks like a door's, bound to something else
    { filename: LIB, code: "const withService = 1;\nexport const x = withService + 1;" },
    { filename: LIB, code: "export const o = { withService: 1 };\nexport const p = o.withService;" },
    // a callback that takes a db is no runner
    {
      filename: LIB,
      code: 'import type { Db } from "@/lib/db/doors";\nexport function each(rows: string[], fn: (db: Db) => Promise<void>) {}',
    },
    { filename: LIB, code: "export type TxRunner = <T>(fn: (db: Db) => Promise<T>) => Promise<T>;" },
  ],
  invalid: [
    {
      filename: LIB,
      code: 'import { withService } from "@/lib/db/doors";\nexport const f = () => withService((db) => db`select 1`);',
      errors: [{ messageId: "opener" }],
    },
    {
      filename: LIB,
      code: 'import { withUser as asMember } from "@/lib/db/doors";\nexport const f = (c) => asMember(c, g);',
      errors: [{ messageId: "opener" }],
    },
    {
      filename: LIB,
      code: 'import { withServiceStatement } from "@/lib/db/doors";\nexport const f = () => withServiceStatement(g);',
      errors: [{ messageId: "opener" }],
    },
    {
      filename: LIB,
      code: 'import * as doors from "@/lib/db/doors";\nexport const f = () => doors.withService(g);',
      errors: [{ messageId: "opener" }],
    },
    // handing the door on as a value: the callee opens the transaction with it
    {
      filename: LIB,
      code: 'import { withService } from "@/lib/db/doors";\nexport const f = () => sendBatch(withService, input);',
      errors: [{ messageId: "opener" }],
    },
    // an injected transaction runner, by its name or by its shape
    {
      filename: LIB,
      code: "export async function sendBroadcastBatch(run: TxRunner, input: object) { return run((db) => claim(db, input)); }",
      errors: [{ messageId: "runner" }],
    },
    {
      filename: LIB,
      code: 'import type { Db } from "@/lib/db/doors";\nexport const f = async (run: <T>(fn: (db: Db) => Promise<T>) => Promise<T>) => run(g);',
      errors: [{ messageId: "runner" }],
    },
    {
      filename: LIB,
      code: "export function f(input: object, run: TxRunner = defaultRunner) { return run(g); }",
      errors: [{ messageId: "runner" }],
    },
  ],
});
