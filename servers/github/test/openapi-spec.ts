/**
 * GitHub's official OpenAPI description (@octokit/openapi, api.github.com, OpenAPI 3.0.3) as
 * JSON Schema 2020-12 for validating the fake GitHub's response bodies.
 *
 * OpenAPI 3.0 schemas are a JSON Schema dialect with one keyword that matters here: `nullable`.
 * It is translated exactly: `{type: T, nullable: true}` → `{type: [T, "null"]}` (and `null` added
 * to an `enum`); a nullable schema without `type` (a `oneOf`/`allOf`/`$ref` composition) →
 * `{anyOf: [<schema without nullable>, {type: "null"}]}`. Nothing else is loosened: `required`,
 * `additionalProperties`, `enum`, `oneOf` and the formats (uri, date-time, email, int64,
 * uri-template — all known to ajv-formats) are checked as written. Examples and `x-*` extensions
 * are annotations and ignored.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { validateJson } from '@refmcp/shared/json-schema';

type Json = Record<string, unknown>;

interface Spec {
  paths: Record<string, Record<string, { responses?: Record<string, Json> }>>;
  components: { schemas: Record<string, Json>; responses: Record<string, Json> };
}

let cached: { spec: Spec; schemas: Record<string, unknown> } | undefined;

/** Loads and converts the description once (~1 s). */
export function githubSpec(): { spec: Spec; schemas: Record<string, unknown> } {
  if (cached) return cached;
  const require = createRequire(import.meta.url);
  const dir = dirname(require.resolve('@octokit/openapi/package.json'));
  const spec = JSON.parse(readFileSync(join(dir, 'generated/api.github.com.json'), 'utf8')) as Spec;
  cached = { spec, schemas: mapValues(spec.components.schemas, toJsonSchema) as Record<string, unknown> };
  return cached;
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

/** True when the description has `method` on `path` (OpenAPI template, e.g. /repos/{owner}/{repo}). */
export function hasOperation(path: string, method: string): boolean {
  return githubSpec().spec.paths[path]?.[method.toLowerCase()] !== undefined;
}

/** The declared statuses of an operation. */
export function declaredStatuses(path: string, method: string): string[] {
  return Object.keys(githubSpec().spec.paths[path]?.[method.toLowerCase()]?.responses ?? {});
}

/**
 * The JSON Schema of the `application/json` body of `status` for an operation, converted; or
 * undefined when the description has no JSON body for it. Response-level `$ref`s are followed.
 */
export function responseSchema(path: string, method: string, status: number): Json | undefined {
  const { spec } = githubSpec();
  let response = spec.paths[path]?.[method.toLowerCase()]?.responses?.[String(status)];
  const ref = response?.$ref;
  if (typeof ref === 'string') response = spec.components.responses[ref.split('/').pop() ?? ''];
  const schema = (response?.content as Record<string, { schema?: unknown }> | undefined)?.['application/json']
    ?.schema;
  return schema === undefined ? undefined : (toJsonSchema(schema) as Json);
}

/** $id of the schema holding every converted component, registered once with the validator. */
const COMPONENTS_ID = 'https://refmcp.invalid/github-openapi/components';
let componentsRegistered = false;

/**
 * Registers the components under {@link COMPONENTS_ID} (validateJson compiles and keeps schemas
 * with an `$id`), so each referenced component is compiled once for all responses.
 */
function registerComponents(): void {
  if (componentsRegistered) return;
  validateJson(
    {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $id: COMPONENTS_ID,
      components: { schemas: githubSpec().schemas },
    },
    null,
  );
  componentsRegistered = true;
}

/** `schema` with local component refs pointing at {@link COMPONENTS_ID}. */
function externalRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(externalRefs);
  if (!node || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node as Json).map(([k, v]) => [
      k,
      k === '$ref' && typeof v === 'string' && v.startsWith('#/') ? `${COMPONENTS_ID}${v}` : externalRefs(v),
    ]),
  );
}

const ONE_OF_OVERLAP = /must match exactly one schema in oneOf$/;

/**
 * Problems of `body` against the described response (empty when valid); throws when none is
 * described. One leniency, stated: where the description's `oneOf` alternatives overlap (e.g. the
 * contents PUT 409 is `oneOf: [basic-error, repository-rule-violation-error]`, and any basic error
 * matches both), ajv reports only "must match exactly one schema in oneOf" — the body matched more
 * than one alternative. That is accepted and reported through `overlaps`.
 */
export function validateResponse(
  path: string,
  method: string,
  status: number,
  body: unknown,
  overlaps: string[] = [],
): string[] {
  const schema = responseSchema(path, method, status);
  if (!schema)
    throw new Error(`${method} ${path} ${status}: no application/json response in the description`);
  registerComponents();
  const errors = validateJson(
    {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $id: `https://refmcp.invalid/github-openapi/${method.toLowerCase()}${path.replace(/[{}]/g, '_')}/${status}`,
      ...(externalRefs(schema) as Json),
    },
    body,
  );
  if (errors.length && errors.every((e) => ONE_OF_OVERLAP.test(e))) {
    overlaps.push(
      `${method} ${path} ${status}: ${errors.join('; ')} (alternatives overlap; matched more than one)`,
    );
    return [];
  }
  return errors;
}
