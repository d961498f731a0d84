// Google Drive's spec source: the route table and closed JSON Schemas generated from
// `@googleapis/drive` itself (test-harness/specs/drive, made by make-spec.mjs from the package's
// generated v3.js and v3.d.ts; SOURCE.md), plus the OAuth token endpoint's reply as
// google-auth-library types it, for the spec check of the fake Drive; and the Docs API v1 made
// the same way from `@googleapis/docs` (specs/docs), whose documents.get the same fake serves.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { JsonSchema, SpecSource } from '../../spec/source.js';

/** One Drive method as the generated client calls it (specs/drive/routes.json). */
export interface DriveOperation {
  /** Discovery method id, e.g. "drive.files.list". */
  id: string;
  httpMethod: string;
  /** URL template under the root URL, e.g. "/drive/v3/files/{fileId}". */
  path: string;
  /** The media upload URL template (files.create/update), e.g. "/upload/drive/v3/files". */
  mediaPath?: string;
  requiredParams: string[];
  pathParams: string[];
  /** Every parameter the method takes (its own and Google's standard parameters). */
  parameters: string[];
  /** `Schema$*` name (without the prefix) of the request body; null for none. */
  request: string | null;
  /** `Schema$*` name of the JSON reply; null for an empty reply (204), "unknown" for media. */
  response: string | null;
}

type Routes = { package: string; standardParameters: string[]; operations: DriveOperation[] };
type Schemas = JsonSchema & { $defs: Record<string, JsonSchema> };

/** The route table and schemas of the fixture (Drive's, the token reply, and Docs'). */
export interface DriveSpecFixture {
  routes: Routes;
  schemas: Schemas;
  token: Schemas;
  docs: { routes: Routes; schemas: Schemas };
}

// test-harness/specs from src/fakes/drive (sources), from test-harness/dist (the bundled demo and
// CLI) or from a sibling package's dist (the bench's bundle).
const SPEC_DIRS = ['../../../specs/', '../specs/', '../../test-harness/specs/'].map(
  (p) => new URL(p, import.meta.url),
);

const fixture = (name: string) => {
  const dir = SPEC_DIRS.find((d) => existsSync(fileURLToPath(new URL(name, d)))) ?? (SPEC_DIRS[0] as URL);
  return JSON.parse(readFileSync(fileURLToPath(new URL(name, dir)), 'utf8'));
};

let loaded: DriveSpecFixture | undefined;

/** Reads specs/drive/{routes,schemas,oauth-token}.json and specs/docs/{routes,schemas}.json (once; do not modify the result). */
export function loadDriveSpec(): DriveSpecFixture {
  loaded ??= {
    routes: fixture('drive/routes.json'),
    schemas: fixture('drive/schemas.json'),
    token: fixture('drive/oauth-token.json'),
    docs: { routes: fixture('docs/routes.json'), schemas: fixture('docs/schemas.json') },
  };
  return loaded;
}

const SCHEMAS_ID = 'https://refmcp.invalid/drive-v3/schemas';
const DOCS_SCHEMAS_ID = 'https://refmcp.invalid/docs-v1/schemas';
const TOKEN_ID = 'https://refmcp.invalid/google-oauth/token';

/**
 * Google's JSON error body (https://cloud.google.com/apis/design/errors#http_mapping, and Drive's
 * "Resolve errors" page): the generated client has no type for it, so it is written here, closed.
 */
export const GOOGLE_ERROR_SCHEMA: JsonSchema = {
  $id: 'https://refmcp.invalid/drive-v3/error',
  type: 'object',
  required: ['error'],
  additionalProperties: false,
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      additionalProperties: false,
      properties: {
        code: { type: 'integer' },
        message: { type: 'string' },
        status: { type: 'string' },
        errors: {
          type: 'array',
          items: {
            type: 'object',
            required: ['message', 'domain', 'reason'],
            additionalProperties: false,
            properties: {
              message: { type: 'string' },
              domain: { type: 'string' },
              reason: { type: 'string' },
              location: { type: 'string' },
              locationType: { type: 'string' },
              extendedHelp: { type: 'string' },
              sendReport: { type: 'string' },
            },
          },
        },
        details: { type: 'array', items: { type: 'object' } },
      },
    },
  },
};

/** The OAuth 2.0 error body of a token endpoint (RFC 6749 §5.2), closed. */
export const OAUTH_ERROR_SCHEMA: JsonSchema = {
  $id: 'https://refmcp.invalid/google-oauth/error',
  type: 'object',
  required: ['error'],
  additionalProperties: false,
  properties: {
    error: { type: 'string' },
    error_description: { type: 'string' },
    error_uri: { type: 'string' },
  },
};

/** The fake's token endpoint (not part of Drive's Discovery document). */
export const TOKEN_PATH = '/token';

/** Operations whose reply may be the file's bytes (Discovery's supportsMediaDownload; the generated client does not carry it). */
const MEDIA_DOWNLOAD = new Set(['drive.files.get', 'drive.files.export', 'drive.revisions.get']);

/** `{anyName}` → `{}`, so that the fake's parameter names need not match Discovery's. */
const shape = (template: string) => template.replace(/\{[^}]*\}/g, '{}');

let cached: SpecSource | undefined;

/**
 * Drive API v3 as `@googleapis/drive` describes it, as a {@link SpecSource}: an operation is
 * `httpMethod` + `path` (or its media upload `mediaPath`) of a generated method; every status 200
 * (204 for methods without a reply body, 206 for media downloads with a Range) has the method's
 * `Schema$*` reply as JSON body, media replies are not JSON (any content type); any 4xx/5xx is
 * Google's error body ({@link GOOGLE_ERROR_SCHEMA}). `POST /token` is the OAuth endpoint: 200 is
 * google-auth-library's `CredentialRequest`, 400/401 the RFC 6749 error.
 */
export function driveSpec(): SpecSource {
  if (cached) return cached;
  const { routes, schemas, token, docs } = loadDriveSpec();
  const byKey = new Map<string, { op: DriveOperation; media: boolean }>();
  for (const op of [...routes.operations, ...docs.routes.operations]) {
    byKey.set(`${op.httpMethod} ${shape(op.path)}`, { op, media: false });
    if (op.mediaPath) byKey.set(`${op.httpMethod} ${shape(op.mediaPath)}`, { op, media: true });
  }
  const find = (method: string, template: string) => byKey.get(`${method} ${shape(template)}`);
  const isToken = (method: string, template: string) => method === 'POST' && template === TOKEN_PATH;
  const statuses = (op: DriveOperation): string[] => {
    if (op.response === null) return ['204'];
    return MEDIA_DOWNLOAD.has(op.id) ? ['200', '206'] : ['200'];
  };
  const jsonReply = (op: DriveOperation, status: number): JsonSchema | undefined => {
    if (status === 206 || op.response === null || op.response === 'unknown') return undefined;
    const id = op.id.startsWith('docs.') ? DOCS_SCHEMAS_ID : SCHEMAS_ID;
    return { $id: `${id}/reply/${op.response}`, $ref: `${id}#/$defs/${op.response}` };
  };
  cached = {
    name: `Google Drive API v3 (${routes.package}) and Docs API v1 (${docs.routes.package}), generated from Discovery`,
    hasOperation: (method, template) => isToken(method, template) || find(method, template) !== undefined,
    declaredStatuses(method, template) {
      if (isToken(method, template)) return ['200', '400', '401'];
      const hit = find(method, template);
      return hit ? statuses(hit.op) : [];
    },
    responseSchema(method, template, status) {
      if (isToken(method, template))
        return status === 200
          ? { $id: `${TOKEN_ID}/reply`, $ref: `${TOKEN_ID}#/$defs/CredentialRequest` }
          : OAUTH_ERROR_SCHEMA;
      const hit = find(method, template);
      if (!hit) return undefined;
      // files.get answers metadata as JSON and, with alt=media, the bytes: the check sees a raw
      // body then and validates nothing (mediaTypes says any type goes).
      return jsonReply(hit.op, status);
    },
    commonResponse: (status) => (status >= 400 ? GOOGLE_ERROR_SCHEMA : undefined),
    mediaTypes(method, template) {
      if (isToken(method, template)) return ['application/json'];
      const hit = find(method, template);
      return hit && MEDIA_DOWNLOAD.has(hit.op.id) ? undefined : ['application/json'];
    },
    definitions: () => [schemas, token, docs.schemas],
  };
  return cached;
}

/** The Drive operation `method` `template` is (template in `{param}` form), or undefined. */
export function driveOperation(method: string, template: string): DriveOperation | undefined {
  // (linear: 64 operations)
  const { routes, docs } = loadDriveSpec();
  return [...routes.operations, ...docs.routes.operations].find(
    (op) =>
      op.httpMethod === method &&
      (shape(op.path) === shape(template) || (op.mediaPath && shape(op.mediaPath) === shape(template))),
  );
}
