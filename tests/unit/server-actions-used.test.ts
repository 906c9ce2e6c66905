import { readdirSync, readFileSync, existsSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { expect, test } from "vitest";

// Every exported server action is a live endpoint: Next.js answers a POST naming its id, whether
// or not a page uses it. One that no page, component or route imports is an endpoint with no
// purpose, so none may exist (docs/decisions.md, "One error type and the adapters"). Tests do not
// count as users. Read with the TypeScript parser: the exports and the imports as declared.

const ROOT = path.resolve(__dirname, "../..");
const FOLDERS = ["app", "components", "lib"];

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) sourceFiles(full, out);
    else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts")) out.push(full);
  }
  return out;
}

const parsed = new Map<string, ts.SourceFile>();
const parse = (file: string) => {
  if (!parsed.has(file))
    parsed.set(file, ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true));
  return parsed.get(file)!;
};

/** The file an import names (the `@/` alias or a relative path), if it is one of ours. */
function resolve(from: string, specifier: string): string | null {
  const base = specifier.startsWith("@/")
    ? path.join(ROOT, specifier.slice(2))
    : specifier.startsWith(".")
      ? path.resolve(path.dirname(from), specifier)
      : null;
  if (!base) return null;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts")])
    if (existsSync(candidate) && candidate.match(/\.tsx?$/)) return candidate;
  return null;
}

function isUseServer(source: ts.SourceFile): boolean {
  const first = source.statements[0];
  return (
    !!first &&
    ts.isExpressionStatement(first) &&
    ts.isStringLiteral(first.expression) &&
    first.expression.text === "use server"
  );
}

/** The names a module exports: `export const`, `export function`, `export { … }`. */
function exportedNames(source: ts.SourceFile): string[] {
  const names: string[] = [];
  for (const statement of source.statements) {
    const exported = ts.canHaveModifiers(statement)
      ? ts.getModifiers(statement)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)
      : false;
    if (exported && ts.isVariableStatement(statement))
      for (const declaration of statement.declarationList.declarations)
        if (ts.isIdentifier(declaration.name)) names.push(declaration.name.text);
    if (exported && ts.isFunctionDeclaration(statement) && statement.name) names.push(statement.name.text);
    if (
      ts.isExportDeclaration(statement) &&
      statement.exportClause &&
      ts.isNamedExports(statement.exportClause)
    )
      for (const element of statement.exportClause.elements) names.push(element.name.text);
  }
  return names;
}

/** `file → names imported from it` over every module but `file` itself. */
function importsByFile(files: string[]): Map<string, Set<string>> {
  const used = new Map<string, Set<string>>();
  const note = (file: string, name: string) => {
    if (!used.has(file)) used.set(file, new Set());
    used.get(file)!.add(name);
  };
  for (const file of files) {
    const source = parse(file);
    const visit = (node: ts.Node) => {
      if (
        (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
        node.moduleSpecifier &&
        ts.isStringLiteral(node.moduleSpecifier)
      ) {
        const target = resolve(file, node.moduleSpecifier.text);
        if (target && target !== file) {
          const bindings = ts.isImportDeclaration(node)
            ? node.importClause?.namedBindings
            : node.exportClause;
          if (bindings && (ts.isNamedImports(bindings) || ts.isNamedExports(bindings)))
            for (const element of bindings.elements)
              note(target, (element.propertyName ?? element.name).text);
          else note(target, "*"); // a namespace import or `export *`: every name may be used
        }
      }
      // `await import("…")`
      if (
        ts.isCallExpression(node) &&
        node.expression.kind === ts.SyntaxKind.ImportKeyword &&
        node.arguments[0] &&
        ts.isStringLiteral(node.arguments[0])
      ) {
        const target = resolve(file, node.arguments[0].text);
        if (target && target !== file) note(target, "*");
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return used;
}

test("every exported server action is imported by a page, a component or a route", () => {
  const files = FOLDERS.flatMap((folder) => sourceFiles(path.join(ROOT, folder)));
  const used = importsByFile(files);
  const actionFiles = files.filter((file) => isUseServer(parse(file)));
  expect(actionFiles.length).toBeGreaterThan(15);
  const unused: string[] = [];
  for (const file of actionFiles) {
    const names = used.get(file) ?? new Set<string>();
    for (const name of exportedNames(parse(file)))
      if (!names.has(name) && !names.has("*")) unused.push(`${path.relative(ROOT, file)}: ${name}`);
  }
  expect(unused).toEqual([]);
}, 60_000);
