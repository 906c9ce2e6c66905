import fc from "fast-check";
import { openApiDocument } from "@/lib/openapi/document";

/**
 * Inputs for fuzzing a v1 operation (docs/api.md), derived from the operation's own schemas
 * in the OpenAPI document and mixed with hostile strings: what a careless or malicious client
 * sends. `ids` are the ids an attacker knows (another workspace's rows).
 */
export const HOSTILE = [
  "",
  " ",
  "'; drop table contacts; --",
  "' or '1'='1",
  "\u0000",
  "a\u0000b",
  "%00",
  "../../etc/passwd",
  "<script>alert(1)</script>",
  "${jndi:ldap://x}",
  "😀".repeat(50),
  "\ud800",
  "9".repeat(400),
  "-1",
  "0",
  "1e309",
  "NaN",
  "Infinity",
  "null",
  "true",
  "[]",
  "{}",
  "__proto__",
  "00000000-0000-0000-0000-000000000000",
  "infinity",
];

type Schema = {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  properties?: Record<string, Schema>;
  items?: Schema;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  format?: string;
  anyOf?: Schema[];
  default?: unknown;
};

const doc = () =>
  JSON.parse(JSON.stringify(openApiDocument())) as {
    paths: Record<
      string,
      Record<
        string,
        {
          parameters?: { in: string; name: string; schema: Schema }[];
          requestBody?: { content: Record<string, { schema: Schema }> };
        }
      >
    >;
    components: { schemas: Record<string, Schema> };
  };

function resolve(schema: Schema, components: Record<string, Schema>): Schema {
  return schema.$ref ? resolve(components[schema.$ref.split("/").pop()!], components) : schema;
}

const hostile = (ids: string[]) =>
  fc.oneof(fc.constantFrom(...HOSTILE, ...ids), fc.string({ maxLength: 40 }));

/** A value for one schema: mostly valid-shaped, sometimes hostile. */
function valueOf(
  schema: Schema,
  components: Record<string, Schema>,
  ids: string[],
  depth = 0,
): fc.Arbitrary<unknown> {
  const s = resolve(schema, components);
  const types = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
  const options: fc.Arbitrary<unknown>[] = [hostile(ids)];
  if (s.enum) options.push(fc.constantFrom(...s.enum));
  if (s.format === "uuid") options.push(fc.uuid(), fc.constantFrom(...(ids.length ? ids : [""])));
  if (types.includes("integer") || types.includes("number"))
    options.push(fc.integer({ min: (s.minimum ?? 0) - 5, max: (s.maximum ?? 1_000_000) + 5 }), fc.double());
  if (types.includes("boolean")) options.push(fc.boolean());
  if (types.includes("null")) options.push(fc.constant(null));
  if (types.includes("string") && !s.enum)
    options.push(
      fc.string({ maxLength: (s.maxLength ?? 50) + 5 }),
      fc.webUrl(),
      fc.constantFrom("12.50", "0.01", "1000000000.00"),
    );
  if (types.includes("array") && s.items && depth < 3)
    options.push(fc.array(valueOf(s.items, components, ids, depth + 1), { maxLength: 15 }));
  if (types.includes("object") && s.properties && depth < 3)
    options.push(bodyOf(s, components, ids, depth + 1));
  if (s.anyOf) options.push(...s.anyOf.map((a) => valueOf(a, components, ids, depth + 1)));
  return fc.oneof(...options);
}

function bodyOf(schema: Schema, components: Record<string, Schema>, ids: string[], depth = 0) {
  const s = resolve(schema, components);
  const shape = Object.fromEntries(
    Object.entries(s.properties ?? {}).map(([k, v]) => [k, valueOf(v, components, ids, depth)]),
  );
  return fc
    .tuple(
      fc.record(shape, { requiredKeys: [] }),
      fc.dictionary(
        fc.constantFrom("__proto__", "constructor", "workspace_id", "id", "extra"),
        fc.jsonValue(),
        {
          maxKeys: 2,
        },
      ),
    )
    .map(([known, extra]) => ({ ...extra, ...known }));
}

export interface FuzzInput {
  id?: string;
  query: Record<string, string>;
  body?: unknown;
}

/** Path id, query and body for `method path`, from the document's parameters and request body. */
export function fuzzInputs(method: string, path: string, ids: string[]): fc.Arbitrary<FuzzInput> {
  const d = doc();
  const op = d.paths[path][method.toLowerCase()];
  const query = Object.fromEntries(
    (op.parameters ?? [])
      .filter((p) => p.in === "query")
      .map((p) => [
        p.name,
        valueOf(p.schema, d.components.schemas, ids).map((v) =>
          typeof v === "string" ? v : JSON.stringify(v),
        ),
      ]),
  );
  const schema = op.requestBody?.content["application/json"]?.schema;
  return fc.record(
    {
      id: fc.oneof(fc.constantFrom(...ids), fc.uuid(), hostile(ids)),
      query: fc.record(query, { requiredKeys: [] }) as fc.Arbitrary<Record<string, string>>,
      body: schema
        ? fc.oneof(bodyOf(schema, d.components.schemas, ids), fc.jsonValue())
        : fc.constant(undefined),
    },
    { requiredKeys: ["id", "query"] },
  );
}

/** A body shaped by one of the document's component schemas (e.g. a batch's ContactWrite items). */
export function componentBody(name: string, ids: string[]): fc.Arbitrary<unknown> {
  const d = doc();
  return bodyOf(d.components.schemas[name], d.components.schemas, ids);
}
