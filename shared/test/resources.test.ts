/**
 * The declarative resource set: the cursor contract (ALL-05), the protocol-error mapping, the
 * template list, subscriptions and capabilities, through the handlers it registers on a real
 * McpServer (captured as they are set, then called as the SDK would).
 */
import {
  McpServer,
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { z } from '../src/schema.js';
import { encodeCursor } from '../src/server/budget.js';
import { ToolError } from '../src/server/errors.js';
import {
  invalidParams,
  notFoundForEra,
  parseResourceUri,
  RESOURCE_NOT_FOUND_2025,
  type ResourceSet,
  registerResourceSet,
} from '../src/server/resources.js';

type Handler = (request: { params?: Record<string, unknown> }, ctx: ServerContext) => Promise<unknown>;

/** Registers `set` on a new McpServer; returns its request handlers by method and the server. */
function serve<P extends Record<string, unknown>>(set: ResourceSet<P>) {
  const server = new McpServer({ name: 't', version: '1' });
  const handlers = new Map<string, Handler>();
  const low = server.server;
  const set_ = low.setRequestHandler.bind(low) as (method: string, handler: unknown) => void;
  (low as { setRequestHandler: unknown }).setRequestHandler = (method: string, handler: Handler) => {
    handlers.set(method, handler);
    set_(method, handler);
  };
  registerResourceSet(server, set);
  const call = (method: string, params: Record<string, unknown> = {}) => {
    const handler = handlers.get(method);
    if (!handler) throw new Error(`no handler for ${method}`);
    return handler({ params }, {} as ServerContext);
  };
  return { server, handlers, call };
}

/** The JSON-RPC error `promise` rejects with (code, message, data). */
async function rejection(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProtocolError);
  const { code, message, data } = error as ProtocolError;
  return { code, message, data };
}

const FILES = Array.from({ length: 5 }, (_, i) => ({ uri: `x://f/${i}`, name: `f${i}` }));

/** A set over FILES with pages of two, positioned by the index to start at. */
function pagedSet(read: ResourceSet['read'] = async () => undefined): ResourceSet<{ at: number }> {
  return {
    resources: [{ uri: 'x://fixed', name: 'fixed', title: 'Fixed' }],
    list: {
      cursor: z.object({ at: z.number().int().nonnegative() }),
      page: (after) => {
        const at = after?.at ?? 0;
        return {
          resources: FILES.slice(at, at + 2),
          ...(at + 2 < FILES.length ? { next: { at: at + 2 } } : {}),
        };
      },
    },
    read,
  };
}

describe('resources/list cursor contract (ALL-05)', () => {
  it('pages through the list: fixed resources first on page one, every resource once', async () => {
    const { call } = serve(pagedSet());
    const uris: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = (await call('resources/list', cursor === undefined ? {} : { cursor })) as {
        resources: { uri: string }[];
        nextCursor?: string;
      };
      uris.push(...page.resources.map((r) => r.uri));
      cursor = page.nextCursor;
      pages++;
    } while (cursor !== undefined);
    expect(pages).toBe(3);
    expect(uris).toEqual(['x://fixed', ...FILES.map((f) => f.uri)]);
  });

  it('issues the page position as the cursor (encodeCursor of what page returned)', async () => {
    const { call } = serve(pagedSet());
    expect(await call('resources/list')).toMatchObject({ nextCursor: encodeCursor({ at: 2 }) });
  });

  it('refuses with -32602 a cursor it never issued: garbage, empty, another shape, a bare envelope', async () => {
    const { call } = serve(pagedSet());
    for (const cursor of ['bogus', '', encodeCursor({ q: 'tool-cursor', offset: 3 }), encodeCursor({})]) {
      expect(await rejection(call('resources/list', { cursor }))).toEqual({
        code: ProtocolErrorCode.InvalidParams,
        message: 'Invalid cursor for resources/list: pass nextCursor from the previous page',
        data: undefined,
      });
    }
  });

  it('a single-page list answers every resource at once and refuses any cursor', async () => {
    const { call } = serve({
      resources: [{ uri: 'a://1', name: 'one' }],
      list: { page: () => ({ resources: [{ uri: 'a://2', name: 'two' }] }) },
      read: async () => undefined,
    });
    expect(await call('resources/list')).toEqual({
      resources: [
        { uri: 'a://1', name: 'one' },
        { uri: 'a://2', name: 'two' },
      ],
    });
    for (const cursor of ['x', '', encodeCursor({ at: 0 })]) {
      expect(await rejection(call('resources/list', { cursor }))).toMatchObject({
        code: ProtocolErrorCode.InvalidParams,
        message: 'Invalid cursor: resources/list has a single page',
      });
    }
  });

  it('a set without a list answers an empty list (templates only) and refuses any cursor', async () => {
    const { call } = serve({
      templates: [{ name: 't', uriTemplate: 't://{x}' }],
      read: async () => undefined,
    });
    expect(await call('resources/list')).toEqual({ resources: [] });
    expect((await rejection(call('resources/list', { cursor: 'x' }))).code).toBe(
      ProtocolErrorCode.InvalidParams,
    );
  });

  it('a single-page list that returns a next position is a programming error (InternalError)', async () => {
    const { call } = serve({
      list: { page: () => ({ resources: [], next: { at: 1 } }) },
      read: async () => undefined,
    });
    expect((await rejection(call('resources/list'))).code).toBe(ProtocolErrorCode.InternalError);
  });
});

describe('resources/templates/list', () => {
  const templates = [
    {
      uriTemplate: 'shot://{name}',
      name: 'shot',
      title: 'Shot',
      mimeType: 'image/png',
      complete: { name: () => ['a', 'b'] },
    },
    { name: 'file', uriTemplate: 'file://{+path}', description: 'Files' },
  ];

  it('lists the templates as declared (key order kept, completion left out) in one page', async () => {
    const { call } = serve({ templates, read: async () => undefined });
    const result = await call('resources/templates/list');
    expect(JSON.stringify(result)).toBe(
      JSON.stringify({
        resourceTemplates: [
          { uriTemplate: 'shot://{name}', name: 'shot', title: 'Shot', mimeType: 'image/png' },
          { name: 'file', uriTemplate: 'file://{+path}', description: 'Files' },
        ],
      }),
    );
    expect(await rejection(call('resources/templates/list', { cursor: 'c' }))).toMatchObject({
      code: ProtocolErrorCode.InvalidParams,
      message: 'Invalid cursor: resources/templates/list has a single page',
    });
  });

  it('serves template variable completion (completion.ts) and declares the completions capability', async () => {
    const { call, server } = serve({ templates, read: async () => undefined });
    const result = await call('completion/complete', {
      ref: { type: 'ref/resource', uri: 'shot://{name}' },
      argument: { name: 'name', value: '' },
    });
    expect(result).toEqual({ completion: { values: ['a', 'b'], total: 2, hasMore: false } });
    expect(server.server.getCapabilities().completions).toEqual({});
  });

  it('declares no completions capability when no template completes', () => {
    const { server } = serve({
      templates: [templates[1] as (typeof templates)[1]],
      read: async () => undefined,
    });
    expect(server.server.getCapabilities().completions).toBeUndefined();
  });
});

describe('resources/read error mapping', () => {
  it('returns what read returns', async () => {
    const contents = [{ uri: 'x://f/1', mimeType: 'text/plain', text: 'one' }];
    const { call } = serve(pagedSet(async (uri) => (uri === 'x://f/1' ? { contents } : undefined)));
    expect(await call('resources/read', { uri: 'x://f/1' })).toEqual({ contents });
  });

  it('nothing read → Resource not found (-32002 before 2026-07-28, with data.uri) for the URI as sent', async () => {
    const { call } = serve(pagedSet());
    expect(await rejection(call('resources/read', { uri: 'x://NOPE/./a' }))).toEqual({
      code: RESOURCE_NOT_FOUND_2025,
      message: 'Resource not found: x://NOPE/./a',
      data: { uri: 'x://NOPE/./a' },
    });
  });

  it('codes not-found per era: -32002 up to 2025-11-25, -32602 from 2026-07-28 (SEP-2164); other errors unchanged', () => {
    const notFound = new ResourceNotFoundError('x://a');
    for (const version of [undefined, '2025-03-26', '2025-11-25'])
      expect((notFoundForEra(notFound, version) as ProtocolError).code).toBe(-32002);
    expect(notFoundForEra(notFound, '2026-07-28')).toBe(notFound);
    const other = new Error('x');
    expect(notFoundForEra(other, '2025-11-25')).toBe(other);
  });

  it('a bad URI → -32602: parseResourceUri and invalidParams pass through unchanged', async () => {
    const { call } = serve(
      pagedSet(async (uri) => {
        if (uri === 'refused') throw invalidParams('refused: too big');
        parseResourceUri(uri);
        return undefined;
      }),
    );
    expect(await rejection(call('resources/read', { uri: 'not a uri' }))).toEqual({
      code: ProtocolErrorCode.InvalidParams,
      message: 'Resource URI not a uri is invalid',
      data: { uri: 'not a uri', reason: 'invalid_uri' },
    });
    expect(await rejection(call('resources/read', { uri: 'refused' }))).toMatchObject({
      code: ProtocolErrorCode.InvalidParams,
      message: 'refused: too big',
    });
  });

  it('any other failure → -32603 InternalError with describeError (no stack)', async () => {
    const failures: unknown[] = [
      new Error('socket hang up'),
      new ToolError('query timed out'),
      Object.assign(new Error('x'), { code: 'EACCES', path: '/p' }),
    ];
    const { call } = serve(
      pagedSet(async () => {
        throw failures.shift();
      }),
    );
    const messages = [];
    for (let i = 0; i < 3; i++) {
      const { code, message } = await rejection(call('resources/read', { uri: 'x://f/1' }));
      expect(code).toBe(ProtocolErrorCode.InternalError);
      messages.push(message);
    }
    expect(messages).toEqual([
      'Internal error: socket hang up',
      'query timed out',
      'permission denied by the operating system (EACCES): /p',
    ]);
  });

  it("never shows the set's secrets in a message or its data", async () => {
    const { call } = serve({
      ...pagedSet(async (uri) => {
        if (uri === 'a') throw new Error('auth failed for token ghp_s3cret');
        throw invalidParams('bad ghp_s3cret', { echoed: 'ghp_s3cret' });
      }),
      secrets: ['ghp_s3cret'],
    });
    expect(await rejection(call('resources/read', { uri: 'a' }))).toMatchObject({
      message: 'Internal error: auth failed for token [redacted]',
    });
    expect(await rejection(call('resources/read', { uri: 'b' }))).toEqual({
      code: ProtocolErrorCode.InvalidParams,
      message: 'bad [redacted]',
      data: { echoed: '[redacted]' },
    });
  });

  it('maps list failures the same way', async () => {
    const { call } = serve({
      list: {
        page: () => {
          throw new Error('catalog unreachable');
        },
      },
      read: async () => undefined,
    });
    expect(await rejection(call('resources/list'))).toMatchObject({
      code: ProtocolErrorCode.InternalError,
      message: 'Internal error: catalog unreachable',
    });
  });
});

describe('subscriptions and capabilities', () => {
  it('without subscriptions: no subscribe handlers, capability listChanged false unless declared', () => {
    const plain = serve(pagedSet());
    expect(plain.handlers.has('resources/subscribe')).toBe(false);
    expect(plain.server.server.getCapabilities().resources).toEqual({ listChanged: false });
    const changing = serve({ ...pagedSet(), listChanged: true });
    expect(changing.server.server.getCapabilities().resources).toEqual({ listChanged: true });
  });

  it('with subscriptions: capability subscribe, both handlers answer {}, refusals pass through', async () => {
    const log: string[] = [];
    const { server, call } = serve({
      ...pagedSet(),
      subscriptions: {
        subscribe: async (uri) => {
          if (uri !== 'x://f/1') throw invalidParams(`cannot subscribe to ${uri}`);
          log.push(`+${uri}`);
        },
      },
    });
    expect(server.server.getCapabilities().resources).toEqual({ subscribe: true, listChanged: false });
    expect(await call('resources/subscribe', { uri: 'x://f/1' })).toEqual({});
    expect(await call('resources/unsubscribe', { uri: 'anything' })).toEqual({});
    expect(await rejection(call('resources/subscribe', { uri: 'x://f/2' }))).toMatchObject({
      code: ProtocolErrorCode.InvalidParams,
      message: 'cannot subscribe to x://f/2',
    });
    expect(log).toEqual(['+x://f/1']);
  });
});
