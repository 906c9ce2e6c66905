import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { RuleTester } from "eslint";
import { describe, expect, it, test } from "vitest";
import { ISSUE_REFERENCE, noIssueReferences } from "@/eslint-rules/no-issue-references.mjs";

// Comments cite the spec section or the decision record, never a ticket (STYLE: Comments). ESLint keeps
// them out of TypeScript and JavaScript; this test does the same for the SQL the migrations run.

/** The comments of a SQL text: `-- …` to the end of the line and `/* … *\/`, outside quoted strings. */
function sqlComments(sql: string): { line: number; text: string }[] {
  const comments: { line: number; text: string }[] = [];
  let line = 1;
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i];
    if (c === "\n") line++;
    else if (c === "'") {
      // a quoted string: '' is a quote inside it
      for (i++; i < sql.length && !(sql[i] === "'" && sql[i + 1] !== "'"); i++) {
        if (sql[i] === "'") i++;
        else if (sql[i] === "\n") line++;
      }
    } else if (c === "-" && sql[i + 1] === "-") {
      const end = sql.indexOf("\n", i);
      const stop = end === -1 ? sql.length : end;
      comments.push({ line, text: sql.slice(i + 2, stop) });
      i = stop - 1;
    } else if (c === "/" && sql[i + 1] === "*") {
      const end = sql.indexOf("*/", i + 2);
      const stop = end === -1 ? sql.length : end;
      const text = sql.slice(i + 2, stop);
      comments.push({ line, text });
      line += text.split("\n").length - 1;
      i = stop + 1;
    }
  }
  return comments;
}

const SQL_FOLDERS = ["supabase/migrations", "supabase/local"];

describe("migration comments cite the spec or the decision record", () => {
  test("no SQL comment in supabase/migrations or supabase/local names an issue, attack or DESIGN number", () => {
    const found: string[] = [];
    for (const folder of SQL_FOLDERS) {
      for (const file of readdirSync(folder).filter((name) => name.endsWith(".sql"))) {
        const sql = readFileSync(path.join(folder, file), "utf8");
        for (const comment of sqlComments(sql)) {
          const match = ISSUE_REFERENCE.exec(comment.text);
          if (match) found.push(`${folder}/${file}:${comment.line}: "${match[0]}"`);
        }
      }
    }
    expect(found).toEqual([]);
  });

  test("the scanner reads line and block comments, and not quoted strings", () => {
    const sql = [
      "-- issue 14: jobs",
      "create table t (note text default 'issue 15 -- not a comment');",
      "/* attack 7 */ select 1; -- DESIGN 5",
      "select 'it''s -- still a string';",
    ].join("\n");
    const hits = sqlComments(sql)
      .filter((comment) => ISSUE_REFERENCE.test(comment.text))
      .map((comment) => comment.line);
    expect(hits).toEqual([1, 3, 3]);
    expect(sqlComments(sql).map((comment) => comment.text.trim())).toEqual([
      "issue 14: jobs",
      "attack 7",
      "DESIGN 5",
    ]);
  });

  test("peer references and spec sections are not references of ours", () => {
    for (const text of [
      "knadh/listmonk#105",
      "spec 4.7",
      'docs/decisions.md, "Outbound webhooks"',
      "tissue 3",
    ]) {
      expect(ISSUE_REFERENCE.test(text)).toBe(false);
    }
    for (const text of ["issue 13", "Issues 12 and 15", "attack 8", "DESIGN 7", "issue #4"]) {
      expect(ISSUE_REFERENCE.test(text)).toBe(true);
    }
  });
});

RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

new RuleTester().run("local/no-issue-references", noIssueReferences, {
  valid: [
    "// spec 4.7: the unsubscribe link\nconst a = 1;",
    '/** docs/decisions.md, "Outbound webhooks" */\nconst b = 2;',
    'test("least privilege: a member cannot read the token", () => {});',
    'const message = "issue 14"; // a string that is not a test title is not checked',
  ],
  invalid: [
    { code: "// issue 14: jobs\nconst a = 1;", errors: [{ messageId: "reference" }] },
    { code: "/* DESIGN 5 */ const b = 2;", errors: [{ messageId: "reference" }] },
    { code: 'describe("attack 7: RLS", () => {});', errors: [{ messageId: "reference" }] },
    { code: 'test.skip("issue 13: sign-up", () => {});', errors: [{ messageId: "reference" }] },
    { code: "it(`Issues 12 and 15 ${1}`, () => {});", errors: [{ messageId: "reference" }] },
  ],
});
