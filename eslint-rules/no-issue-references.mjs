/**
 * A comment or a test title cites the spec section or the decision record it means
 * (`spec 4.7`, `docs/decisions.md, "Outbound webhooks"`), never a ticket: the word issue, attack or
 * DESIGN followed by a number means nothing to a reader who has the spec and the docs but not the tracker.
 * Peer references such as `knadh/listmonk#105` do not match.
 */

/** The one pattern, shared with the unit test that scans the migrations' SQL comments. */
export const ISSUE_REFERENCE = /\b(issues?|attacks?|DESIGN)\s+#?\d+/i;

const TEST_FUNCTIONS = new Set(["describe", "test", "it"]);

/** `test`, `test.skip`, `describe.each([...])`: the name the call starts from. */
function testFunctionName(callee) {
  if (callee.type === "Identifier") return callee.name;
  if (callee.type === "MemberExpression") return testFunctionName(callee.object);
  if (callee.type === "CallExpression") return testFunctionName(callee.callee);
  return null;
}

function titleText(node) {
  if (node?.type === "Literal" && typeof node.value === "string") return node.value;
  if (node?.type === "TemplateLiteral") return node.quasis.map((quasi) => quasi.value.cooked ?? "").join(" ");
  return null;
}

/** @type {import("eslint").Rule.RuleModule} */
export const noIssueReferences = {
  meta: {
    type: "suggestion",
    docs: {
      description: "Cite the spec section or the decision record, not an issue, attack or DESIGN number.",
    },
    schema: [],
    messages: {
      reference:
        '"{{reference}}" cannot be resolved by a reader: cite the spec section (spec 4.7) or the decision ' +
        'record (docs/decisions.md, "Heading") it means.',
    },
  },
  create(context) {
    const report = (node, text) => {
      const match = ISSUE_REFERENCE.exec(text);
      if (match) context.report({ loc: node.loc, messageId: "reference", data: { reference: match[0] } });
    };
    return {
      Program() {
        for (const comment of context.sourceCode.getAllComments()) report(comment, comment.value);
      },
      CallExpression(node) {
        if (!TEST_FUNCTIONS.has(testFunctionName(node.callee) ?? "")) return;
        const title = titleText(node.arguments[0]);
        if (title !== null) report(node.arguments[0], title);
      },
    };
  },
};

/** The repository's own rules, as an ESLint plugin (eslint.config.mjs registers it as `local`). */
const plugin = { rules: { "no-issue-references": noIssueReferences } };

export default plugin;
