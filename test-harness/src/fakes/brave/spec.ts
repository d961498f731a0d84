// Brave's spec source: the JSON Schemas written by hand from Brave's response-model documentation
// (test-harness/specs/brave, SOURCE.md cites the pages; Brave publishes no machine-readable
// description), for the spec check of the fake Brave. Every operation declares 200 (its response
// model), 422 and 429 (the ErrorResponse envelope); every answer's headers must carry the plan's
// X-RateLimit-* windows.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { JsonSchema, SpecSource } from '../../spec/source.js';

/** Where the schemas live (relative to this source file). */
export const BRAVE_SPECS = fileURLToPath(new URL('../../../specs/brave/', import.meta.url));

const DEFS_ID = 'https://refmcp.invalid/brave/defs';

interface Operations {
  operations: Record<string, string>;
  errors: string[];
  responses: Record<string, JsonSchema>;
}

let cached: SpecSource | undefined;

/** Loads specs/brave once as a {@link SpecSource} (operations keyed "GET /web/search", under /res/v1). */
export function braveSpec(): SpecSource {
  if (cached) return cached;
  const defs = JSON.parse(readFileSync(`${BRAVE_SPECS}defs.json`, 'utf8')) as JsonSchema;
  const ops = JSON.parse(readFileSync(`${BRAVE_SPECS}operations.json`, 'utf8')) as Operations;
  const definitions = defs.definitions as Record<string, JsonSchema>;
  const schemaOf = (name: string): JsonSchema => {
    const local = ops.responses[name];
    if (local)
      return {
        $schema: 'http://json-schema.org/draft-07/schema#',
        $id: `https://refmcp.invalid/brave/${name}`,
        ...local,
      };
    if (!definitions[name]) throw new Error(`specs/brave: no definition ${name}`);
    return {
      $schema: 'http://json-schema.org/draft-07/schema#',
      $id: `https://refmcp.invalid/brave/ref/${name}`,
      $ref: `${DEFS_ID}#/definitions/${name}`,
    };
  };
  const key = (method: string, template: string) => `${method} ${template}`;
  const has = (method: string, template: string) => key(method, template) in ops.operations;
  const error = schemaOf('ErrorResponse');
  const headers = schemaOf('RateLimitHeaders');
  cached = {
    name: 'Brave Search API (JSON Schemas from the response-model docs, specs/brave)',
    hasOperation: has,
    declaredStatuses: (method, template) => (has(method, template) ? ['200', ...ops.errors] : []),
    responseSchema(method, template, status) {
      const model = ops.operations[key(method, template)];
      if (!model) return undefined;
      if (status === 200) return schemaOf(model);
      return ops.errors.includes(String(status)) ? error : undefined;
    },
    definitions: () => [defs],
    headerSchema: (method, template) => (has(method, template) ? headers : undefined),
  };
  return cached;
}
