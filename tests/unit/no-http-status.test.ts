import { ESLint, RuleTester } from "eslint";
import tsParser from "@typescript-eslint/parser";
import { describe, expect, it, test } from "vitest";
import { noHttpStatus } from "@/eslint-rules/no-http-status.mjs";

// docs/decisions.md, "One error type and the adapters": an HTTP status exists only in the codes of
// lib/errors/app-error.ts and the adapters that answer with them; nowhere else in lib/.

RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

new RuleTester({ languageOptions: { parser: tsParser } }).run("http-status/no-http-status", noHttpStatus, {
  valid: [
    'throw new AppError("not_found", "This form does not exist.");',
    'return { outcome: "rejected", error: new AppError("rate_limited") };',
    "if (res.status === 404) return null;", // a provider's answer, read
    "const limit = { retryAfterSeconds: 60, status: 'done' };",
    "type Row = { status: 'failed' | 'done' };",
    "const page = { limit: 500, offset: 200 };",
    "Response.json(body, { status: APP_ERROR_CODES.unavailable.status });",
  ],
  invalid: [
    { code: "return { status: 400, error: 'Bad.' };", errors: 1 },
    { code: "return new Response(null, { status: 303, headers });", errors: 1 },
    { code: "return Response.json(body, { status: ready ? 200 : 503 });", errors: 2 },
    { code: "type Result = { status: 400 | 413 | 415; error: string };", errors: 3 },
    { code: "interface Reply { status: 409 }", errors: 1 },
    { code: "response.writeHead(200, headers);", errors: 1 },
    { code: "return Response.redirect(url, 302);", errors: 1 },
    { code: "const reply = { statusCode: 500 };", errors: 1 },
  ],
});

describe("no HTTP status in lib/ outside lib/adapters and lib/http", () => {
  // `npm test` lints the tree with this configuration (its lint stage), so the tree itself is checked there
  test("the repository's ESLint configuration applies the rule to lib/, but not to the adapters, lib/http or the codes", async () => {
    const eslint = new ESLint();
    const rule = "http-status/no-http-status";
    expect((await eslint.calculateConfigForFile("lib/forms/flows/submit-form.ts")).rules[rule]).toEqual([2]);
    expect((await eslint.calculateConfigForFile("lib/observability/worker-server.ts")).rules[rule]).toEqual([
      2,
    ]);
    for (const file of [
      "lib/adapters/route-errors.ts",
      "lib/http/error-envelope.ts",
      "lib/errors/app-error.ts",
    ])
      expect((await eslint.calculateConfigForFile(file)).rules).not.toHaveProperty(rule);
  }, 60_000); // loading the repository's configuration (Next.js's presets) takes seconds on a busy machine

  test("a status in a lib/ file is reported by the repository's configuration", async () => {
    const eslint = new ESLint({ ruleFilter: ({ ruleId }) => ruleId === "http-status/no-http-status" });
    const [result] = await eslint.lintText("export const refused = { status: 403, error: 'No.' };\n", {
      filePath: "lib/forms/example.ts",
    });
    expect(result.messages.map((message) => message.ruleId)).toEqual(["http-status/no-http-status"]);
  }, 60_000);
});
