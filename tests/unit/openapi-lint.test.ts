import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, test } from "vitest";
import { openApiDocument } from "@/lib/openapi/document";

/**
 * The document passes `redocly lint` with the recommended ruleset (docs/decisions.md, "OpenAPI and
 * the API reference"): no error, and no warning beyond the few below, which describe routes as they
 * are. It is linted as a deployment serves it (APP_URL an https address: a localhost server is what
 * the rule `no-server-example.com` warns of, and only a developer's machine serves that).
 */
const REDOCLY = path.resolve(__dirname, "../../node_modules/.bin/redocly");

/** Warnings that are the truth about a route: it answers only with a redirect, or never refuses. */
const EXPECTED_WARNINGS = [
  // links and OAuth returns: a browser is redirected, success or not
  ["operation-2xx-response", "#/paths/~1api~1forms~1verify/get/responses"],
  ["operation-2xx-response", "#/paths/~1api~1subscribe~1{contactId}/get/responses"],
  ["operation-4xx-response", "#/paths/~1api~1subscribe~1{contactId}/get/responses"],
  ["operation-2xx-response", "#/paths/~1api~1auth~1ticketing~1callback/get/responses"],
  ["operation-4xx-response", "#/paths/~1api~1auth~1ticketing~1callback/get/responses"],
  ["operation-2xx-response", "#/paths/~1api~1auth~1payproc~1callback/get/responses"],
  ["operation-4xx-response", "#/paths/~1api~1auth~1payproc~1callback/get/responses"],
  // a CORS preflight that any origin passes, liveness, readiness and this document: no refusal
  ["operation-4xx-response", "#/paths/~1api~1v1~1public~1events/options/responses"],
  ["operation-4xx-response", "#/paths/~1api~1health/get/responses"],
  ["operation-4xx-response", "#/paths/~1api~1ready/get/responses"],
  ["operation-4xx-response", "#/paths/~1api~1openapi.json/get/responses"],
].map(([rule, pointer]) => `${rule} ${pointer}`);

interface Problem {
  ruleId: string;
  severity: "error" | "warn";
  message: string;
  location: { pointer: string }[];
}

let dir = "";
let problems: Problem[] = [];

beforeAll(async () => {
  const before = process.env.APP_URL;
  process.env.APP_URL = "https://crm.acme.test";
  const document = openApiDocument();
  if (before === undefined) delete process.env.APP_URL;
  else process.env.APP_URL = before;
  dir = await mkdtemp(path.join(tmpdir(), "openapi-lint-"));
  const file = path.join(dir, "openapi.json");
  await writeFile(file, JSON.stringify(document));
  // exit status 1 when there are errors: the report on stdout is what counts
  const { stdout } = await promisify(execFile)(
    REDOCLY,
    ["lint", file, "--format=json", "--max-problems=1000"],
    {
      cwd: dir,
      env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
    },
  ).catch((e: { stdout?: string }) => ({ stdout: e.stdout ?? "" }));
  problems = (JSON.parse(stdout) as { problems: Problem[] }).problems;
}, 60_000);

afterAll(() => rm(dir, { recursive: true, force: true }));

const describe = (p: Problem) => `${p.ruleId} ${p.location[0]?.pointer}`;

test("redocly recommended: no error (every operation has a security requirement)", () => {
  expect(problems.filter((p) => p.severity === "error").map((p) => `${describe(p)}: ${p.message}`)).toEqual(
    [],
  );
});

test("redocly recommended: no warning but the routes that only redirect or never refuse", () => {
  const warnings = problems.filter((p) => p.severity !== "error").map(describe);
  expect(warnings.filter((w) => !EXPECTED_WARNINGS.includes(w))).toEqual([]);
});
