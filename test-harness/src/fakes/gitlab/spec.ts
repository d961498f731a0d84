// GitLab's spec source: the subset of GitLab's own OpenAPI 3.0 description in
// test-harness/specs/gitlab (GitLab 19.5, CC BY-SA 4.0; SOURCE.md) with the documented errata of
// ./errata.ts applied, through the OpenAPI 3.0 adapter, for the spec check of the fake GitLab.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type OpenApi30Document, openApi30Source } from '../../spec/openapi30.js';
import type { SpecSource } from '../../spec/source.js';
import {
  COMMON_ERROR_STATUSES,
  ERRATA_SCHEMAS,
  ERROR_BODY_ERRATUM,
  PATH_ERRATA,
  RESPONSE_ERRATA,
} from './errata.js';
import { SCHEMA_ERRATA } from './errata-schemas.js';

type Json = Record<string, unknown>;
type Operation = { responses?: Record<string, Json> };

/** Where the fixture lives (relative to this source file). */
export const GITLAB_OPENAPI_SUBSET = fileURLToPath(
  new URL('../../../specs/gitlab/openapi-subset.json', import.meta.url),
);

/** The description's paths start with the fake's prefix. */
const PATH_PREFIX = '/api/v4';

/**
 * `document` (GitLab's description) with every erratum applied, as a new document. Throws when an
 * erratum names an operation, schema or property the description lacks (so errata cannot drift
 * from the fixture unnoticed).
 */
export function applyErrata(document: OpenApi30Document): OpenApi30Document {
  const doc = structuredClone(document) as OpenApi30Document & {
    components: { schemas: Record<string, Json> };
  };
  const schemas = doc.components.schemas;
  for (const [name, schema] of Object.entries(ERRATA_SCHEMAS)) schemas[name] = schema;
  for (const e of SCHEMA_ERRATA)
    for (const name of e.schemas) {
      const properties = schemas[name]?.properties as Record<string, unknown> | undefined;
      if (!properties) throw new Error(`erratum (${e.docs}): no schema ${name}`);
      for (const [property, schema] of Object.entries(e.properties)) {
        if (!(property in properties))
          throw new Error(`erratum (${e.docs}): ${name} has no property ${property}`);
        properties[property] = schema;
      }
    }
  for (const e of PATH_ERRATA) {
    const item = doc.paths[e.path];
    if (!item) throw new Error(`erratum (${e.docs}): no path ${e.path}`);
    delete doc.paths[e.path];
    doc.paths[e.to] = item;
  }
  for (const item of Object.values(doc.paths))
    for (const op of Object.values(item) as Operation[])
      for (const [status, response] of Object.entries(op.responses ?? {}))
        if (Number(status) >= 400 && !response.content)
          response.content = { 'application/json': { schema: ERROR_BODY_ERRATUM.json } };
  for (const e of RESPONSE_ERRATA) {
    const op = doc.paths[e.path]?.[e.method.toLowerCase()] as Operation | undefined;
    if (!op?.responses) throw new Error(`erratum (${e.docs}): no operation ${e.method} ${e.path}`);
    const content: Json = {};
    if (e.json) content['application/json'] = { schema: e.json };
    for (const type of e.mediaTypes ?? []) content[type] = { schema: { type: 'string' } };
    op.responses[e.status] = { description: '', content };
  }
  return doc;
}

let cached: SpecSource | undefined;

/**
 * Loads GitLab's description (the repository's subset, ~220 KB) with the errata applied, once, as
 * a {@link SpecSource}. Undeclared error statuses ({@link COMMON_ERROR_STATUSES}) answer GitLab's
 * error body; `mediaTypes` names the content types a non-JSON reply (job log, raw file, a
 * throttled 429's `Retry later`) may have.
 */
export function gitlabSpec(): SpecSource {
  if (cached) return cached;
  const document = applyErrata(JSON.parse(readFileSync(GITLAB_OPENAPI_SUBSET, 'utf8')) as OpenApi30Document);
  const source = openApi30Source(document, {
    name: 'GitLab REST v4 (openapi_v3.yaml 19.5 subset, with errata)',
    id: 'https://refmcp.invalid/gitlab-openapi',
    pathPrefix: PATH_PREFIX,
    commonResponses: Object.fromEntries(COMMON_ERROR_STATUSES.map((s) => [s, 'ErrataGitLabError'])),
  });
  cached = {
    ...source,
    mediaTypes(method, template, status) {
      const op = document.paths[`${PATH_PREFIX}${template}`]?.[method.toLowerCase()] as Operation | undefined;
      const content = op?.responses?.[String(status)]?.content as Json | undefined;
      // Rack::Attack's throttle answers "Retry later" as text; an application limit answers JSON.
      if (!content) return status === 429 ? ['text/plain', 'application/json'] : undefined;
      return Object.keys(content);
    },
  };
  return cached;
}
