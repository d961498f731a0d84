#!/usr/bin/env node
/**
 * Makes `openapi-subset.json` from a saved copy of GitLab's OpenAPI 3.0 description
 * (`doc/api/openapi/openapi_v3.yaml`, converted to JSON first, for example with
 * `npx -y js-yaml openapi_v3.yaml > openapi_v3.json`). Runs offline; no dependencies.
 *
 * Usage: node make-subset.mjs <openapi_v3.json> [out.json]
 *   out.json defaults to `openapi-subset.json` beside this script.
 *
 * What it keeps: the operations in WANTED, each with its parameters (name, in, required, schema,
 * style, explode), request body and responses per status; every component schema those reference,
 * transitively; the `http` and `apiKey` security schemes. What it drops: prose (`description`,
 * `summary`, `example`, `examples`, `tags`, `externalDocs`) and every `x-*` extension, except where such
 * a word is a property name inside a schema's `properties`. Each response keeps an empty `description`
 * (OpenAPI 3.0 requires the field), so the subset stays a valid document for validators.
 * Object keys are sorted; arrays keep their order.
 *
 * Exit status: 0 when every wanted operation was found, 1 when some are missing (they are listed on
 * stderr and left out of the output), 2 on bad arguments.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The operations a GitLab MCP server calls: [method, path as written in GitLab's description]. */
export const WANTED = [
  ['get', '/api/v4/user'],
  ['get', '/api/v4/version'],
  ['get', '/api/v4/metadata'],
  ['get', '/api/v4/projects'],
  ['post', '/api/v4/projects'],
  ['get', '/api/v4/projects/{id}'],
  ['post', '/api/v4/projects/{id}/fork'],
  ['get', '/api/v4/projects/{id}/repository/tree'],
  ['get', '/api/v4/projects/{id}/repository/files/{file_path}'],
  ['post', '/api/v4/projects/{id}/repository/files/{file_path}'],
  ['put', '/api/v4/projects/{id}/repository/files/{file_path}'],
  ['get', '/api/v4/projects/{id}/repository/files/{file_path}/raw'],
  ['get', '/api/v4/projects/{id}/repository/commits'],
  ['post', '/api/v4/projects/{id}/repository/commits'],
  ['get', '/api/v4/projects/{id}/repository/commits/{sha}'],
  ['get', '/api/v4/projects/{id}/repository/commits/{sha}/diff'],
  ['get', '/api/v4/projects/{id}/repository/compare'],
  ['get', '/api/v4/projects/{id}/repository/branches'],
  ['post', '/api/v4/projects/{id}/repository/branches'],
  ['get', '/api/v4/projects/{id}/repository/branches/{branch}'],
  ['get', '/api/v4/projects/{id}/issues'],
  ['post', '/api/v4/projects/{id}/issues'],
  ['get', '/api/v4/projects/{id}/issues/{issue_iid}'],
  ['put', '/api/v4/projects/{id}/issues/{issue_iid}'],
  ['get', '/api/v4/projects/{id}/issues/{noteable_id}/notes'],
  ['post', '/api/v4/projects/{id}/issues/{noteable_id}/notes'],
  ['get', '/api/v4/projects/{id}/merge_requests'],
  ['post', '/api/v4/projects/{id}/merge_requests'],
  ['get', '/api/v4/projects/{id}/merge_requests/{merge_request_iid}'],
  ['put', '/api/v4/projects/{id}/merge_requests/{merge_request_iid}'],
  ['get', '/api/v4/projects/{id}/merge_requests/{merge_request_iid}/diffs'],
  ['get', '/api/v4/projects/{id}/merge_requests/{noteable_id}/discussions'],
  ['get', '/api/v4/projects/{id}/merge_requests/{noteable_id}/notes'],
  ['post', '/api/v4/projects/{id}/merge_requests/{noteable_id}/notes'],
  ['post', '/api/v4/projects/{id}/merge_requests/{merge_request_iid}/approve'],
  ['put', '/api/v4/projects/{id}/merge_requests/{merge_request_iid}/merge'],
  ['get', '/api/v4/projects/{id}/pipelines'],
  ['get', '/api/v4/projects/{id}/pipelines/{pipeline_id}'],
  ['get', '/api/v4/projects/{id}/pipelines/{pipeline_id}/jobs'],
  ['get', '/api/v4/projects/{id}/jobs/{job_id}'],
  ['get', '/api/v4/projects/{id}/jobs/{job_id}/trace'],
  ['get', '/api/v4/projects/{id}/members/all/{user_id}'],
  // Issue 29 (review and CI loop).
  ['get', '/api/v4/projects/{id}/merge_requests/{merge_request_iid}/draft_notes'],
  ['post', '/api/v4/projects/{id}/merge_requests/{merge_request_iid}/draft_notes'],
  ['delete', '/api/v4/projects/{id}/merge_requests/{merge_request_iid}/draft_notes/{draft_note_id}'],
  ['post', '/api/v4/projects/{id}/merge_requests/{merge_request_iid}/draft_notes/bulk_publish'],
  ['get', '/api/v4/projects/{id}/merge_requests/{merge_request_iid}/pipelines'],
  ['post', '/api/v4/projects/{id}/pipeline'],
  ['post', '/api/v4/projects/{id}/pipelines/{pipeline_id}/retry'],
  ['post', '/api/v4/projects/{id}/pipelines/{pipeline_id}/cancel'],
  ['get', '/api/v4/projects/{id}/(-/)search'],
  ['get', '/api/v4/groups/{id}/(-/)search'],
  // In the description but not located in the windows read: hand-written (SOURCE.md, "Issue 29").
  ['post', '/api/v4/projects/{id}/merge_requests/{noteable_id}/discussions'],
  ['put', '/api/v4/projects/{id}/merge_requests/{noteable_id}/discussions/{discussion_id}'],
  ['post', '/api/v4/projects/{id}/merge_requests/{noteable_id}/discussions/{discussion_id}/notes'],
  ['get', '/api/v4/projects/{id}/labels'],
];

const PROSE = new Set(['description', 'summary', 'example', 'examples', 'tags', 'externalDocs']);
const SCHEMA_PREFIX = '#/components/schemas/';

/**
 * Returns a copy of `node` without prose or `x-*` keys. `inProperties` is true when `node` is a
 * schema's `properties` map, whose keys are field names (a field may be called `description`).
 */
function stripProse(node, inProperties = false) {
  if (Array.isArray(node)) return node.map((item) => stripProse(item));
  if (node === null || typeof node !== 'object') return node;
  const out = {};
  for (const [key, value] of Object.entries(node)) {
    if (!inProperties && (PROSE.has(key) || key.startsWith('x-'))) continue;
    out[key] = stripProse(value, !inProperties && key === 'properties');
  }
  return out;
}

/** Returns a copy of `node` with every object's keys in sorted order (arrays keep their order). */
function sortKeys(node) {
  if (Array.isArray(node)) return node.map(sortKeys);
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.keys(node)
      .sort()
      .map((key) => [key, sortKeys(node[key])]),
  );
}

/** Adds to `names` every component schema name that `node` references with `$ref`. */
function collectRefs(node, names) {
  if (Array.isArray(node)) {
    for (const item of node) collectRefs(item, names);
  } else if (node !== null && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith(SCHEMA_PREFIX)) {
        names.add(value.slice(SCHEMA_PREFIX.length));
      } else {
        collectRefs(value, names);
      }
    }
  }
}

/**
 * Builds the subset document from a full (or partial) GitLab OpenAPI document.
 * Returns `{ subset, missingOperations, missingSchemas }`; the lists hold `METHOD path` and schema names.
 */
export function makeSubset(full) {
  const paths = {};
  const missingOperations = [];
  for (const [method, path] of WANTED) {
    const operation = full.paths?.[path]?.[method];
    if (!operation) {
      missingOperations.push(`${method.toUpperCase()} ${path}`);
      continue;
    }
    const stripped = stripProse(operation);
    for (const response of Object.values(stripped.responses ?? {})) response.description = '';
    paths[path] ??= {};
    paths[path][method] = stripped;
  }
  const allSchemas = full.components?.schemas ?? {};
  const schemas = {};
  const missingSchemas = [];
  const pending = new Set();
  collectRefs(paths, pending);
  while (pending.size > 0) {
    const [name] = pending;
    pending.delete(name);
    if (name in schemas || missingSchemas.includes(name)) continue;
    if (!(name in allSchemas)) {
      missingSchemas.push(name);
      continue;
    }
    schemas[name] = stripProse(allSchemas[name]);
    collectRefs(schemas[name], pending);
  }
  const { http, apiKey } = full.components?.securitySchemes ?? {};
  const subset = {
    openapi: full.openapi,
    info: { title: full.info?.title, version: full.info?.version, license: full.info?.license },
    paths,
    components: { securitySchemes: stripProse({ http, apiKey }), schemas },
  };
  return { subset: sortKeys(subset), missingOperations, missingSchemas };
}

function main(argv) {
  const [input, output = join(dirname(fileURLToPath(import.meta.url)), 'openapi-subset.json')] = argv;
  if (!input) {
    console.error('usage: node make-subset.mjs <openapi_v3.json> [out.json]');
    return 2;
  }
  const { subset, missingOperations, missingSchemas } = makeSubset(JSON.parse(readFileSync(input, 'utf8')));
  writeFileSync(output, `${JSON.stringify(subset, null, 2)}\n`);
  for (const name of missingSchemas) console.error(`missing schema: ${name}`);
  for (const op of missingOperations) console.error(`missing operation: ${op}`);
  return missingOperations.length > 0 || missingSchemas.length > 0 ? 1 : 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exitCode = main(process.argv.slice(2));
