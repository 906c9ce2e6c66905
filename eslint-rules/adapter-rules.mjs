/**
 * The adapters and the transactions, checked on the syntax tree (docs/decisions.md, "One error type and
 * the adapters"): every route handler and server action is built by an adapter, none hand-rolls a
 * try/catch, and only the code that may open transactions (the doors, the adapters, the job engine, the
 * flows, the identity) opens one, directly or through a transaction runner handed to it.
 */

/** The functions that build a route handler method. */
export const ROUTE_ADAPTERS = new Set([
  "publicRoute",
  "memberRoute",
  "serviceRoute",
  "userRoute",
  "apiRoute",
]);
/** The functions that build a server action. */
export const ACTION_ADAPTERS = new Set(["memberAction", "publicAction", "userAction"]);
const METHODS = new Set(["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD"]);
/** The doors' functions that open a transaction (lib/db/doors.ts). */
export const TRANSACTION_OPENERS = new Set(["withUser", "withService", "withServiceStatement"]);

/** A file that starts with the "use server" directive. */
function isUseServer(program) {
  return program.body.some(
    (statement) => statement.type === "ExpressionStatement" && statement.directive === "use server",
  );
}

const isRouteFile = (filename) => /(^|[\\/])route\.tsx?$/.test(filename);

/** `adapter(...)`, or the same wrapped in `satisfies`/`as`: the adapter's name, else null. */
function adapterCalled(init) {
  let node = init;
  while (node && (node.type === "TSAsExpression" || node.type === "TSSatisfiesExpression"))
    node = node.expression;
  if (node?.type !== "CallExpression") return null;
  return node.callee.type === "Identifier" ? node.callee.name : null;
}

/** The value exports of a module: name, node to report, and what initialises it (null: not a call). */
function* valueExports(program) {
  for (const statement of program.body) {
    if (statement.type === "ExportDefaultDeclaration") {
      yield { name: "default", node: statement, init: statement.declaration };
      continue;
    }
    if (statement.type !== "ExportNamedDeclaration" || statement.exportKind === "type") continue;
    const declaration = statement.declaration;
    if (declaration?.type === "VariableDeclaration")
      for (const declarator of declaration.declarations)
        yield { name: declarator.id.name ?? "(pattern)", node: declarator, init: declarator.init };
    else if (declaration?.type === "FunctionDeclaration")
      yield { name: declaration.id?.name ?? "(function)", node: declaration, init: null };
    else if (!declaration)
      for (const specifier of statement.specifiers ?? [])
        if (specifier.exportKind !== "type")
          yield { name: specifier.exported.name ?? specifier.exported.value, node: specifier, init: null };
  }
}

/** @type {import("eslint").Rule.RuleModule} */
export const adaptersOnly = {
  meta: {
    type: "problem",
    docs: {
      description:
        "Route handler methods and server actions are built by an adapter (lib/adapters) and catch nothing themselves.",
    },
    schema: [],
    messages: {
      route:
        "Route handler method {{name}} must be built by publicRoute, memberRoute, serviceRoute, userRoute (lib/adapters) or apiRoute (lib/api/v1).",
      action:
        'Every export of a "use server" file is a server action built by memberAction, publicAction or userAction (lib/adapters); move helpers to another module.',
      tryCatch:
        "Route handlers and server actions do not catch errors themselves: throw an AppError and let the adapter map it.",
    },
  },
  create(context) {
    const route = isRouteFile(context.filename);
    let action = false;
    return {
      Program(program) {
        action = isUseServer(program);
        if (!route && !action) return;
        for (const { name, node, init } of valueExports(program)) {
          const called = adapterCalled(init);
          if (route && METHODS.has(name) && !ROUTE_ADAPTERS.has(called ?? ""))
            context.report({ node, messageId: "route", data: { name } });
          if (action && !ACTION_ADAPTERS.has(called ?? "")) context.report({ node, messageId: "action" });
        }
      },
      TryStatement(node) {
        if (route || action) context.report({ node, messageId: "tryCatch" });
      },
    };
  },
};

/** A type annotation that names a transaction runner: `TxRunner`, or `(fn: (db: Db) => …) => …`. */
function isTransactionRunnerType(type) {
  if (!type) return false;
  if (type.type === "TSTypeReference") {
    const name = type.typeName.type === "Identifier" ? type.typeName.name : type.typeName.right?.name;
    return name === "TxRunner";
  }
  if (type.type === "TSUnionType") return type.types.some(isTransactionRunnerType);
  if (type.type !== "TSFunctionType") return false;
  const first = type.params[0]?.typeAnnotation?.typeAnnotation;
  if (first?.type !== "TSFunctionType") return false;
  const db = first.params[0]?.typeAnnotation?.typeAnnotation;
  return db?.type === "TSTypeReference" && db.typeName.type === "Identifier" && db.typeName.name === "Db";
}

/** @type {import("eslint").Rule.RuleModule} */
export const transactionsInFlows = {
  meta: {
    type: "problem",
    docs: {
      description:
        "Domain functions take a transaction and never open one, neither through the doors nor through a runner handed to them.",
    },
    schema: [],
    messages: {
      opener:
        "{{name}} opens a transaction: domain functions take `db` and never open one. Open it in a flow (a flows/ folder), the job engine or an adapter.",
      runner:
        "A transaction runner parameter opens transactions from a domain function: move the function to a flows/ folder, or take `db`.",
    },
  },
  create(context) {
    /** local names bound to the doors' openers by an import */
    const openers = new Map();
    /** local names of `import * as doors from ".../db/doors"` */
    const namespaces = new Set();
    const checkParams = (fn) => {
      for (const param of fn.params) {
        const target = param.type === "AssignmentPattern" ? param.left : param;
        if (isTransactionRunnerType(target.typeAnnotation?.typeAnnotation))
          context.report({ node: param, messageId: "runner" });
      }
    };
    return {
      ImportDeclaration(node) {
        for (const specifier of node.specifiers)
          if (specifier.type === "ImportNamespaceSpecifier" && /(^|\/)db\/doors$/.test(node.source.value))
            namespaces.add(specifier.local.name);
          else if (specifier.type === "ImportSpecifier") {
            const imported = specifier.imported.name ?? specifier.imported.value;
            if (TRANSACTION_OPENERS.has(imported)) openers.set(specifier.local.name, imported);
          }
      },
      // a call, or the function handed on as a value (`sendBatch(withService)`): both open transactions
      Identifier(node) {
        const name = openers.get(node.name);
        if (!name) return;
        const parent = node.parent;
        if (parent.type === "ImportSpecifier") return;
        if (parent.type === "MemberExpression" && parent.property === node && !parent.computed) return;
        if (parent.type === "Property" && parent.key === node && !parent.shorthand) return;
        context.report({ node, messageId: "opener", data: { name } });
      },
      // `doors.withService(…)`
      MemberExpression(node) {
        if (node.object.type !== "Identifier" || !namespaces.has(node.object.name) || node.computed) return;
        if (TRANSACTION_OPENERS.has(node.property.name))
          context.report({ node, messageId: "opener", data: { name: node.property.name } });
      },
      FunctionDeclaration: checkParams,
      FunctionExpression: checkParams,
      ArrowFunctionExpression: checkParams,
      TSDeclareFunction: checkParams,
    };
  },
};

const plugin = {
  rules: { "adapters-only": adaptersOnly, "transactions-in-flows": transactionsInFlows },
};
export default plugin;
