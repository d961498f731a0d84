/**
 * The spec source for OpenAPI 3.0 descriptions (GitHub's @octokit/openapi; GitLab's
 * openapi_v3.yaml next), as JSON Schema 2020-12 for validating a fake's response bodies.
 *
 * OpenAPI 3.0 schemas are a JSON Schema dialect with one keyword that matters here: `nullable`.
 * It is translated exactly: `{type: T, nullable: true}` → `{type: [T, "null"]}` (and `null` added
 * to an `enum`); a nullable schema without `type` (a `oneOf`/`allOf`/`$ref` composition) →
 * `{anyOf: [<schema without nullable>, {type: "null"}]}`. Nothing else is loosened: `required`,
 * `additionalProperties`, `enum`, `oneOf` and the formats (uri, date-time, email, int64,
 * uri-template — all known to ajv-formats) are checked as written. Examples and `x-*` extensions
 * are annotations and ignored.
 */
import type { JsonSchema, SpecSource } from './source.js';

type Json = Record<string, unknown>;

/** The parts of an OpenAPI 3.0 document the spec source reads. */
export interface OpenApi30Document {
  openapi: string;
  paths: Record<string, Record<string, { responses?: Record<string, Json> } | unknown>>;
  components?: { schemas?: Record<string, Json>; responses?: Record<string, Json> };
}

/** Options of {@link openApi30Source}. */
export interface OpenApi30Options {
  /** Names the description in failure messages. */
  name: string;
  /** A URI unique to this description: the `$id` base of its converted schemas (never fetched). */
  id: string;
  /**
   * Prepended to the fake's templates before lookup, when the description's paths include part of
   * the fake's prefix (e.g. "/api/v4" when the fake is mounted at "/api/v4" but paths are written
   * "/api/v4/projects/{id}"); default "".
   */
  pathPrefix?: string;
  /**
   * Replies the vendor sends from any operation without declaring them on each: status → name of
   * the `components.schemas` entry their body matches (GitHub: 401/403/404 → "basic-error").
   */
  commonResponses?: Record<number, string>;
}

/** Recursively translates OpenAPI 3.0 `nullable` (module comment). */
export function toJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toJsonSchema);
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node as Json)) {
    if (k === 'nullable' || k === 'example' || k === 'examples' || k.startsWith('x-')) continue;
    out[k] =
      k === 'properties' || k === 'patternProperties' || k === '$defs'
        ? mapValues(v, toJsonSchema)
        : toJsonSchema(v);
  }
  if ((node as Json).nullable !== true) return out;
  if (typeof out.type === 'string') {
    out.type = [out.type, 'null'];
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
    return out;
  }
  return { anyOf: [out, { type: 'null' }] };
}

function mapValues(value: unknown, fn: (v: unknown) => unknown): unknown {
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value as Json).map(([k, v]) => [k, fn(v)]));
}

/** `schema` with local component refs (`#/components/…`) pointing into the document `componentsId`. */
function externalRefs(node: unknown, componentsId: string): unknown {
  if (Array.isArray(node)) return node.map((n) => externalRefs(n, componentsId));
  if (!node || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node as Json).map(([k, v]) => [
      k,
      k === '$ref' && typeof v === 'string' && v.startsWith('#/')
        ? `${componentsId}${v}`
        : externalRefs(v, componentsId),
    ]),
  );
}

/** A path template with parameter names dropped, so "/a/{id}" and "/a/{project_id}" compare equal. */
const shape = (template: string) => template.replace(/\{[^}]+\}/g, '{}');

/**
 * A {@link SpecSource} over an OpenAPI 3.0 document: operations by path template (exact, else
 * the same shape with other parameter names), statuses as declared, response schemas of the
 * `application/json` content (response `$ref`s followed; status resolved exact → "4XX" →
 * "default"), converted per the module comment; undeclared statuses named in
 * `commonResponses` answer `commonResponse`. The converted `components.schemas` are one
 * definition, `<id>/components`, that response schemas `$ref` into.
 */
export function openApi30Source(document: OpenApi30Document, options: OpenApi30Options): SpecSource {
  const componentsId = `${options.id}/components`;
  const prefix = options.pathPrefix ?? '';
  const byShape = new Map<string, string>();
  for (const path of Object.keys(document.paths))
    if (!byShape.has(shape(path))) byShape.set(shape(path), path);
  const operation = (method: string, template: string) => {
    const key = `${prefix}${template}`;
    const item = document.paths[key] ?? document.paths[byShape.get(shape(key)) ?? ''];
    return item?.[method.toLowerCase()] as { responses?: Record<string, Json> } | undefined;
  };
  let definitions: JsonSchema[] | undefined;
  return {
    name: options.name,
    hasOperation: (method, template) => operation(method, template) !== undefined,
    declaredStatuses: (method, template) => Object.keys(operation(method, template)?.responses ?? {}),
    responseSchema(method, template, status) {
      const responses = operation(method, template)?.responses ?? {};
      let response = responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default;
      const ref = response?.$ref;
      if (typeof ref === 'string') response = document.components?.responses?.[ref.split('/').pop() ?? ''];
      const content = response?.content as Record<string, { schema?: unknown }> | undefined;
      const schema = content?.['application/json']?.schema;
      if (schema === undefined) return undefined;
      return {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        $id: `${options.id}/${method.toLowerCase()}${template.replace(/[{}]/g, '_')}/${status}`,
        ...(externalRefs(toJsonSchema(schema), componentsId) as Json),
      };
    },
    commonResponse(status) {
      const name = options.commonResponses?.[status];
      if (!name) return undefined;
      return {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        $id: `${options.id}/common/${status}`,
        $ref: `${componentsId}#/components/schemas/${name}`,
      };
    },
    definitions() {
      definitions ??= [
        {
          $schema: 'https://json-schema.org/draft/2020-12/schema',
          $id: componentsId,
          components: { schemas: mapValues(document.components?.schemas ?? {}, toJsonSchema) },
        },
      ];
      return definitions;
    },
  };
}
