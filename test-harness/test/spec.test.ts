import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Exchange, TRAFFIC_DIR_ENV } from '../src/fake-api/index.js';
import {
  checkTraffic,
  openApi30Source,
  specCheckSetup,
  toJsonSchema,
  validateReply,
} from '../src/spec/index.js';

describe('OpenAPI nullable → JSON Schema', () => {
  it('adds null to typed schemas and enums, wraps untyped ones in anyOf, keeps property names', () => {
    expect(toJsonSchema({ type: 'string', nullable: true, enum: ['a'] })).toEqual({
      type: ['string', 'null'],
      enum: ['a', null],
    });
    expect(toJsonSchema({ nullable: true, oneOf: [{ $ref: '#/x' }] })).toEqual({
      anyOf: [{ oneOf: [{ $ref: '#/x' }] }, { type: 'null' }],
    });
    expect(
      toJsonSchema({
        type: 'object',
        properties: { nullable: { type: 'boolean' }, example: { type: 'string', example: 'x' } },
      }),
    ).toEqual({
      type: 'object',
      properties: { nullable: { type: 'boolean' }, example: { type: 'string' } },
    });
  });
});

/** A small OpenAPI 3.0 description in GitHub's style. */
const document = {
  openapi: '3.0.3',
  paths: {
    '/things/{thing_id}': {
      get: {
        responses: {
          '200': { content: { 'application/json': { schema: { $ref: '#/components/schemas/thing' } } } },
          '404': { $ref: '#/components/responses/not_found' },
          '4XX': { content: { 'application/json': { schema: { type: 'object', required: ['code'] } } } },
        },
      },
      put: {
        responses: {
          '409': {
            content: {
              'application/json': {
                schema: {
                  oneOf: [{ $ref: '#/components/schemas/error' }, { $ref: '#/components/schemas/error' }],
                },
              },
            },
          },
        },
      },
    },
    '/raw': { get: { responses: { '302': { description: 'redirect' } } } },
  },
  components: {
    schemas: {
      thing: {
        type: 'object',
        required: ['id', 'note'],
        properties: { id: { type: 'integer' }, note: { type: 'string', nullable: true } },
      },
      error: { type: 'object', required: ['message'], properties: { message: { type: 'string' } } },
    },
    responses: {
      not_found: { content: { 'application/json': { schema: { $ref: '#/components/schemas/error' } } } },
    },
  },
};
const source = openApi30Source(document, {
  name: 'Things API',
  id: 'https://refmcp.invalid/things-test',
  commonResponses: { 401: 'error' },
});

describe('OpenAPI 3.0 spec source', () => {
  it('finds operations by template (any parameter names), statuses, and response schemas', () => {
    expect(source.hasOperation('GET', '/things/{thing_id}')).toBe(true);
    expect(source.hasOperation('GET', '/things/{id}')).toBe(true);
    expect(source.hasOperation('DELETE', '/things/{id}')).toBe(false);
    expect(source.declaredStatuses('GET', '/things/{id}')).toEqual(['200', '404', '4XX']);
    expect(source.responseSchema('GET', '/raw', 302)).toBeUndefined();
    expect(validateReply(source, 'GET', '/things/{id}', 200, { id: 1, note: null })).toEqual([]);
    expect(validateReply(source, 'GET', '/things/{id}', 200, { id: 'x', note: null })).toEqual([
      '/id: must be integer',
    ]);
    expect(validateReply(source, 'GET', '/things/{id}', 404, {})).toEqual([
      "/: must have required property 'message'",
    ]);
    expect(validateReply(source, 'GET', '/things/{id}', 422, { code: 1 })).toEqual([]); // 4XX
    expect(source.commonResponse?.(401)).toMatchObject({
      $ref: expect.stringMatching(/#\/components\/schemas\/error$/),
    });
    expect(source.commonResponse?.(500)).toBeUndefined();
    expect(() => validateReply(source, 'GET', '/raw', 302, {})).toThrow(/no application\/json response/);
  });
});

const exchange = (x: Partial<Exchange>): Exchange => ({
  vendor: 'things',
  method: 'GET',
  route: '/things/:id',
  target: '/things/1',
  status: 200,
  headers: {},
  ...x,
});

describe('checkTraffic', () => {
  it('names operation, status and schema error for each problem, once, with a count and an example', () => {
    const report = checkTraffic(
      [
        exchange({ body: { id: 1, note: 'ok' } }),
        exchange({ body: { id: 'one', note: 'x' }, target: '/things/one' }),
        exchange({ body: { id: 'two', note: 'y' }, target: '/things/two' }),
        exchange({ status: 500, body: { message: 'boom' } }),
        exchange({ status: 401, body: { message: 'bad token' } }),
        exchange({ status: 401, body: {} }),
        exchange({ method: 'DELETE' }),
        exchange({ route: '/raw', target: '/raw', status: 302, body: { moved: true } }),
        exchange({ method: 'PUT', status: 409, body: { message: 'conflict' } }),
        exchange({ status: 503, body: { anything: 1 }, fault: true }),
        exchange({ route: undefined, target: '/nope', status: 404, body: {} }),
        exchange({ vendor: 'other', body: 'ignored' }),
      ],
      { things: source },
    );
    expect(report.problems).toEqual([
      'GET /things/{id} → 200: /id: must be integer (2×, e.g. /things/one)',
      'GET /things/{id} → 500: status not declared (declared: 200, 404, 4XX) (1×, e.g. /things/1)',
      "GET /things/{id} → 401: /: must have required property 'message' (1×, e.g. /things/1)",
      'DELETE /things/{id}: not an operation of Things API (1×, e.g. /things/1)',
      'GET /raw → 302: JSON body where the description declares none (1×, e.g. /raw)',
    ]);
    expect(report.overlaps).toEqual(['PUT /things/{id} 409']);
    expect(report).toMatchObject({ checked: 9, validated: 6, faults: 1, unrouted: 1 });
  });
});

describe('specCheckSetup (vitest globalSetup)', () => {
  it('hands the fakes a traffic directory and fails the run when the recorded traffic has problems', async () => {
    const before = process.env[TRAFFIC_DIR_ENV];
    const exitCode = process.exitCode;
    delete process.env[TRAFFIC_DIR_ENV];
    const reports: unknown[] = [];
    try {
      const teardown = specCheckSetup({ things: () => source }, { onReport: (r) => reports.push(r) })();
      const dir = process.env[TRAFFIC_DIR_ENV] ?? '';
      expect(dir).toContain('refmcp-fake-traffic-');
      writeFileSync(
        join(dir, '1-0.jsonl'),
        `${JSON.stringify(exchange({ body: { id: 'x', note: null } }))}\n`,
      );
      await expect(teardown()).rejects.toThrow(/GET \/things\/\{id\} → 200: \/id: must be integer/);
      expect(process.exitCode).toBe(1);
      expect(reports).toHaveLength(1);

      const kept = mkdtempSync(join(tmpdir(), 'kept-traffic-'));
      process.env[TRAFFIC_DIR_ENV] = kept;
      writeFileSync(
        join(kept, '1-0.jsonl'),
        `${JSON.stringify(exchange({ body: { id: 1, note: null } }))}\n`,
      );
      await specCheckSetup({ things: () => source }, { onReport: () => {} })()();
      rmSync(kept, { recursive: true });
    } finally {
      process.exitCode = exitCode;
      if (before === undefined) delete process.env[TRAFFIC_DIR_ENV];
      else process.env[TRAFFIC_DIR_ENV] = before;
    }
  });
});
