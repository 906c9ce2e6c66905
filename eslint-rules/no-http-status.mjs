/**
 * An HTTP status is decided in one place: lib/errors/app-error.ts maps each refusal's code to
 * its status, and the adapters (lib/adapters) and lib/http answer with it (docs/decisions.md,
 * "One error type and the adapters"). Code elsewhere in lib/ refuses with an AppError code and
 * never names a status: no `status: 404` in a result or a Response, no `status: 400 | 413` in a
 * type, no `writeHead(503)` or `Response.redirect(url, 302)`. A status read from a provider's
 * answer (`res.status === 404` of a client) is not a status this service answers, and passes.
 */

const isStatusNumber = (node) =>
  node?.type === "Literal" && typeof node.value === "number" && node.value >= 100 && node.value <= 599;

/** The status numbers an expression can evaluate to directly: `404`, `a ? 200 : 503`, `x ?? 500`. */
function statusLiterals(node) {
  if (!node) return [];
  if (isStatusNumber(node)) return [node];
  if (node.type === "ConditionalExpression")
    return [...statusLiterals(node.consequent), ...statusLiterals(node.alternate)];
  if (node.type === "LogicalExpression") return [...statusLiterals(node.left), ...statusLiterals(node.right)];
  if (node.type === "TSAsExpression" || node.type === "TSSatisfiesExpression")
    return statusLiterals(node.expression);
  return [];
}

/** The numeric literal types of a type annotation: `400 | 413`. */
function statusLiteralTypes(node) {
  if (!node) return [];
  if (node.type === "TSLiteralType" && isStatusNumber(node.literal)) return [node];
  if (node.type === "TSUnionType") return node.types.flatMap(statusLiteralTypes);
  return [];
}

const STATUS_KEYS = new Set(["status", "statusCode"]);
const STATUS_CALLS = new Set(["writeHead", "redirect"]);

const keyName = (node) =>
  node.computed ? null : node.key?.type === "Identifier" ? node.key.name : node.key?.value;

/** @type {import("eslint").Rule.RuleModule} */
export const noHttpStatus = {
  meta: {
    type: "problem",
    docs: {
      description: "No HTTP status number outside lib/adapters and lib/http: refuse with an AppError code.",
    },
    schema: [],
    messages: {
      status:
        "HTTP status {{status}} named here: refuse with an AppError code (lib/errors/app-error.ts); the adapters " +
        "map codes to statuses.",
    },
  },
  create(context) {
    const report = (node, value) =>
      context.report({ node, messageId: "status", data: { status: String(value) } });
    return {
      Property(node) {
        if (!STATUS_KEYS.has(keyName(node))) return;
        for (const literal of statusLiterals(node.value)) report(literal, literal.value);
      },
      TSPropertySignature(node) {
        if (!STATUS_KEYS.has(keyName(node))) return;
        for (const type of statusLiteralTypes(node.typeAnnotation?.typeAnnotation))
          report(type, type.literal.value);
      },
      CallExpression(node) {
        const callee = node.callee;
        const name = callee.type === "MemberExpression" && !callee.computed ? callee.property.name : null;
        if (!STATUS_CALLS.has(name)) return;
        for (const argument of node.arguments)
          for (const literal of statusLiterals(argument)) report(literal, literal.value);
      },
    };
  },
};

/** Registered by eslint.config.mjs as `http-status` for lib/ outside lib/adapters and lib/http. */
const plugin = { rules: { "no-http-status": noHttpStatus } };

export default plugin;
