import type { McpServer } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { z } from '../src/schema.js';
import { registerTools, scrubResult } from '../src/server/run.js';
import { defineTool, type ToolContext, type ToolResult, textResult } from '../src/server/tool.js';

type Callback = (args: unknown, ctx: { mcpReq: { signal: AbortSignal } }) => Promise<ToolResult>;

const HINTS = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

/** Registers one tool whose handler is `handler` on a stand-in server; returns the SDK-facing callback. */
function setup(handler: (ctx: ToolContext) => Promise<ToolResult>) {
  let callback: Callback | undefined;
  const server = {
    registerTool: (_name: string, _config: unknown, cb: Callback) => {
      callback = cb;
    },
  } as unknown as McpServer;
  const shutdown = new AbortController();
  const tool = defineTool({
    name: 't',
    title: 'T',
    description: 'test tool',
    inputSchema: z.strictObject({}),
    annotations: HINTS,
    handler: (_args, ctx) => handler(ctx),
  });
  registerTools(server, [tool], { secrets: [], shutdown: shutdown.signal, maxResultBytes: 1 << 20 });
  if (!callback) throw new Error('tool not registered');
  const call = callback;
  return { shutdown, call: (request: AbortSignal) => call({}, { mcpReq: { signal: request } }) };
}

/** A request signal that counts the abort listeners added to it. */
function requestSignal() {
  const controller = new AbortController();
  const signal = controller.signal;
  let listeners = 0;
  const add = signal.addEventListener.bind(signal);
  signal.addEventListener = ((...args: Parameters<typeof add>) => {
    listeners++;
    add(...args);
  }) as typeof signal.addEventListener;
  return { controller, signal, listeners: () => listeners };
}

describe('registerTools: the handler signal', () => {
  it('is aborted when the client cancels the request', async () => {
    const request = requestSignal();
    let seen: AbortSignal | undefined;
    const { call } = setup(async (ctx) => {
      seen = ctx.signal;
      request.controller.abort(new Error('cancelled'));
      return textResult(seen.aborted ? 'aborted' : 'running');
    });
    const result = await call(request.signal);
    expect(result.content[0]).toEqual({ type: 'text', text: 'aborted' });
    expect(seen?.reason).toEqual(new Error('cancelled'));
  });

  it('is aborted when the server shuts down, also when asked for after the shutdown began', async () => {
    const request = requestSignal();
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let early: AbortSignal | undefined;
    const { call, shutdown } = setup(async (ctx) => {
      early = ctx.signal;
      await gate;
      return textResult('done');
    });
    const pending = call(request.signal);
    await Promise.resolve();
    shutdown.abort(new Error('server shutting down'));
    expect(early?.aborted).toBe(true);
    release();
    await pending;

    const late = setup(async (ctx) => textResult(String(ctx.signal.aborted)));
    late.shutdown.abort(new Error('server shutting down'));
    const result = await late.call(requestSignal().signal);
    expect(result.content[0]).toEqual({ type: 'text', text: 'true' });
  });

  it('is aborted at once when the request was cancelled before the handler asked', async () => {
    const request = requestSignal();
    request.controller.abort(new Error('cancelled'));
    const { call } = setup(async (ctx) => textResult(String(ctx.signal.aborted)));
    const result = await call(request.signal);
    expect(result.content[0]).toEqual({ type: 'text', text: 'true' });
  });

  it('costs nothing (no listener on the request) when the handler never asks for it', async () => {
    const request = requestSignal();
    const { call } = setup(async () => textResult('ok'));
    await call(request.signal);
    expect(request.listeners()).toBe(0);

    const asking = requestSignal();
    const second = setup(async (ctx) => textResult(String(ctx.signal.aborted)));
    await second.call(asking.signal);
    expect(asking.listeners()).toBe(1);
  });
});

describe('registerTools: a definition’s heartbeat', () => {
  /** Registers a tool with heartbeat "waiting" whose handler answers once `release` is called. */
  function heartbeatTool() {
    let callback: ((args: unknown, ctx: unknown) => Promise<ToolResult>) | undefined;
    const server = {
      registerTool: (_name: string, _config: unknown, cb: typeof callback) => {
        callback = cb;
      },
    } as unknown as McpServer;
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tool = defineTool({
      name: 'slow',
      title: 'Slow',
      description: 'test tool',
      inputSchema: z.strictObject({}),
      annotations: HINTS,
      heartbeat: 'waiting',
      handler: async () => {
        await gate;
        return textResult('done');
      },
    });
    registerTools(server, [tool], {
      secrets: [],
      shutdown: new AbortController().signal,
      maxResultBytes: 1 << 20,
    });
    const sent: unknown[] = [];
    const call = (meta: Record<string, unknown>) =>
      callback?.(
        {},
        {
          mcpReq: {
            signal: new AbortController().signal,
            _meta: meta,
            notify: async (n: { params: unknown }) => {
              sent.push(n.params);
              release(); // the first beat lets the handler answer
            },
          },
        },
      );
    return { call, sent, release: () => release() };
  }

  it('reports "<heartbeat>, N s" while the handler runs when the request carried a progressToken', async () => {
    const t = heartbeatTool();
    const result = await t.call({ progressToken: 'p1' });
    expect(result?.content[0]).toEqual({ type: 'text', text: 'done' });
    expect(t.sent[0]).toEqual({ progressToken: 'p1', progress: 0, message: 'waiting, 0 s' });
  });

  it('reports nothing without a progressToken', async () => {
    const t = heartbeatTool();
    const pending = t.call({});
    t.release();
    expect((await pending)?.content[0]).toEqual({ type: 'text', text: 'done' });
    expect(t.sent).toEqual([]);
  });
});

describe('scrubResult', () => {
  const SECRET = 'ghp_secretvalue123';
  it('redacts a secret in text, structuredContent values and keys, and leaves the rest as it was', () => {
    const result: ToolResult = {
      content: [{ type: 'text', text: `token ${SECRET} leaked` }],
      structuredContent: { nested: [{ note: `a${SECRET}b`, n: 7, ok: true, none: null }], [SECRET]: 'key' },
    };
    expect(scrubResult(result, [SECRET])).toEqual({
      content: [{ type: 'text', text: 'token [redacted] leaked' }],
      structuredContent: {
        nested: [{ note: 'a[redacted]b', n: 7, ok: true, none: null }],
        '[redacted]': 'key',
      },
    });
    // The handler's own object is not changed.
    expect(result.content[0]).toEqual({ type: 'text', text: `token ${SECRET} leaked` });
  });

  it('returns the very result when no string holds a secret, or when the secrets are under 4 characters', () => {
    const result: ToolResult = {
      content: [{ type: 'text', text: 'nothing here: abc' }],
      structuredContent: { a: 'abc' },
    };
    expect(scrubResult(result, [SECRET])).toBe(result);
    expect(scrubResult(result, ['abc'])).toBe(result);
    expect(scrubResult(result, [])).toBe(result);
  });

  it('finds a secret nested deeper than the walk goes, and in a non-plain value as it is serialised', () => {
    let deep: Record<string, unknown> = { leaf: `x ${SECRET}` };
    for (let i = 0; i < 100; i++) deep = { d: deep };
    const result: ToolResult = { content: [], structuredContent: { deep, when: new Date(0) } };
    const scrubbed = JSON.stringify(scrubResult(result, [SECRET]));
    expect(scrubbed).not.toContain(SECRET);
    expect(scrubbed).toContain('x [redacted]');
    expect(scrubbed).toContain('"when":"1970-01-01T00:00:00.000Z"');
  });
});
