// Slack's spec source: one closed JSON Schema per Web API method, generated from the response
// types @slack/web-api ships (test-harness/specs/slack, SOURCE.md), and the client's own method
// list, for the spec check of the fake Slack. Slack answers every method with HTTP 200 — errors
// are `{ok: false, error}` bodies, which each method's type describes (`error`, `needed`,
// `provided`, `warning`) — and 429 `{ok: false, error: "ratelimited"}` from any method.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { JsonSchema, SpecSource } from '../../spec/source.js';

/** Where the fixture lives (relative to this source file). */
export const SLACK_SPECS = fileURLToPath(new URL('../../../specs/slack/', import.meta.url));

/** methods.json: the package, the generator, the methods served (→ type) and the client's method list. */
interface MethodList {
  package: string;
  generator: string;
  served: Record<string, string>;
  methods: string[];
}

/** The body of Slack's 429 (not in any method's type: the client turns it into a rate-limited error). */
export const RATELIMITED_SCHEMA: JsonSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: 'https://refmcp.invalid/slack/ratelimited',
  type: 'object',
  properties: { ok: { const: false }, error: { const: 'ratelimited' } },
  required: ['ok', 'error'],
  additionalProperties: false,
};

/** The Web API method a template names: `/api/chat.postMessage` or `/chat.postMessage` → "chat.postMessage". */
export function slackMethodOf(template: string): string {
  return template.replace(/^\/api\//, '/').replace(/^\//, '');
}

let cached: SpecSource | undefined;

/**
 * Loads the Slack description (specs/slack) once as a {@link SpecSource}: an operation exists when
 * the method is in @slack/web-api's method list and has a committed schema, for GET and POST
 * alike; its one declared status is 200; 429 is the common response ({@link RATELIMITED_SCHEMA}).
 */
export function slackSpec(): SpecSource {
  if (cached) return cached;
  const list = JSON.parse(readFileSync(`${SLACK_SPECS}methods.json`, 'utf8')) as MethodList;
  const known = new Set(list.methods);
  const schemas = new Map<string, JsonSchema>();
  for (const method of Object.keys(list.served)) {
    if (!known.has(method)) throw new Error(`specs/slack: ${method} is not a method of ${list.package}`);
    schemas.set(method, JSON.parse(readFileSync(`${SLACK_SPECS}${method}.json`, 'utf8')) as JsonSchema);
  }
  // Block Kit (edit 4 of SOURCE.md): the `blocks` items of the method schemas $ref it by $id.
  const blocks = JSON.parse(readFileSync(`${SLACK_SPECS}blocks.json`, 'utf8')) as JsonSchema;
  const has = (method: string, template: string) =>
    (method === 'GET' || method === 'POST') && schemas.has(slackMethodOf(template));
  cached = {
    name: `Slack Web API (response types of ${list.package}, ${list.generator})`,
    hasOperation: has,
    declaredStatuses: (method, template) => (has(method, template) ? ['200'] : []),
    responseSchema: (method, template, status) =>
      has(method, template) && status === 200 ? schemas.get(slackMethodOf(template)) : undefined,
    commonResponse: (status) => (status === 429 ? RATELIMITED_SCHEMA : undefined),
    definitions: () => [blocks],
  };
  return cached;
}

/** Every method name of @slack/web-api's client (from specs/slack/methods.json). */
export function slackClientMethods(): string[] {
  return (JSON.parse(readFileSync(`${SLACK_SPECS}methods.json`, 'utf8')) as MethodList).methods;
}
