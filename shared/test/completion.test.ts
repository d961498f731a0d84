/**
 * completion/complete as completion.ts serves it: bounded (≤100 values, total and hasMore), cut off
 * (a completer that does not answer is aborted and the answer is empty), cached, quiet on errors,
 * refusing unknown references, and the capability declared only when something completes. Through
 * the handler registered on a real McpServer (captured as it is set, then called as the SDK would).
 */
import {
  McpServer,
  ProtocolError,
  ProtocolErrorCode,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { z } from '../src/schema.js';
import {
  boundCompletion,
  type Completer,
  CompletionCache,
  completeFrom,
  completionTimeoutMs,
  registerCompletions,
} from '../src/server/completion.js';
import { registerPrompt } from '../src/server/prompts.js';

type Handler = (request: { params?: Record<string, unknown> }, ctx: ServerContext) => Promise<unknown>;

function capture() {
  const server = new McpServer({ name: 't', version: '1' });
  const handlers = new Map<string, Handler>();
  const low = server.server;
  const set_ = low.setRequestHandler.bind(low) as (method: string, handler: unknown) => void;
  (low as { setRequestHandler: unknown }).setRequestHandler = (method: string, handler: Handler) => {
    handlers.set(method, handler);
    set_(method, handler);
  };
  const complete = (params: Record<string, unknown>, signal = new AbortController().signal) => {
    const handler = handlers.get('completion/complete');
    if (!handler) throw new Error('no completion/complete handler');
    return handler({ params }, { mcpReq: { signal } } as unknown as ServerContext) as Promise<{
      completion: { values: string[]; total?: number; hasMore?: boolean };
    }>;
  };
  return { server, handlers, complete };
}

const prompt = (name: string, arg: string, value: string, context?: Record<string, string>) => ({
  ref: { type: 'ref/prompt', name },
  argument: { name: arg, value },
  ...(context ? { context: { arguments: context } } : {}),
});

describe('completeFrom and boundCompletion', () => {
  it('keeps the candidates starting with the value (any case), else those containing it', () => {
    expect(completeFrom(['Alpha', 'beta', 'alpine', 'alpha'], 'al')).toEqual({
      values: ['Alpha', 'alpine', 'alpha'],
      total: 3,
      hasMore: false,
    });
    expect(completeFrom(['main', 'feature/login'], 'log').values).toEqual(['feature/login']);
    expect(completeFrom(['a', 'a', 'b'], '').values).toEqual(['a', 'b']);
  });

  it('sends at most 100 values, with the total and hasMore', () => {
    const many = Array.from({ length: 250 }, (_, i) => `t${i}`);
    expect(completeFrom(many, 't')).toMatchObject({ total: 250, hasMore: true });
    expect(completeFrom(many, 't').values).toHaveLength(100);
    const bounded = boundCompletion(many);
    expect(bounded.values).toHaveLength(100);
    expect(bounded).toMatchObject({ total: 250, hasMore: true });
    // A completer that knows there are more but not how many.
    expect(boundCompletion({ values: ['a'], hasMore: true })).toEqual({ values: ['a'], hasMore: true });
    // A claimed total below what was given is raised to it.
    expect(boundCompletion({ values: ['a', 'b'], total: 1 })).toEqual({
      values: ['a', 'b'],
      total: 2,
      hasMore: false,
    });
  });

  it('reads the cut-off from MCP_COMPLETION_TIMEOUT_MS, else 2000 ms', () => {
    expect(completionTimeoutMs({ MCP_COMPLETION_TIMEOUT_MS: '250' })).toBe(250);
    expect(completionTimeoutMs({ MCP_COMPLETION_TIMEOUT_MS: 'soon' })).toBe(2000);
    expect(completionTimeoutMs({})).toBe(2000);
  });
});

describe('completion/complete', () => {
  it('declares the capability only once a completer exists, and answers with the bounded values', async () => {
    const { server, complete } = capture();
    registerCompletions(server, { prompts: { plain: {} }, templates: { 'x://{id}': {} } });
    expect(server.server.getCapabilities().completions).toBeUndefined();
    const many = Array.from({ length: 150 }, (_, i) => `v${i}`);
    registerCompletions(server, { prompts: { pick: { thing: ({ value }) => completeFrom(many, value) } } });
    expect(server.server.getCapabilities().completions).toEqual({});
    const { completion } = await complete(prompt('pick', 'thing', 'v1'));
    // v1, v10–v19, v100–v149: 61 matches.
    expect(completion).toMatchObject({ total: 61, hasMore: false });
    expect(completion.values[0]).toBe('v1');
    const all = (await complete(prompt('pick', 'thing', ''))).completion;
    expect(all).toMatchObject({ total: 150, hasMore: true });
    expect(all.values).toHaveLength(100);
  });

  it('passes the other chosen arguments to the completer', async () => {
    const { server, complete } = capture();
    registerCompletions(server, {
      templates: { 'repo://{owner}/{repo}': { repo: ({ arguments: a }) => [`${a.owner ?? '?'}-x`] } },
    });
    const result = await complete({
      ref: { type: 'ref/resource', uri: 'repo://{owner}/{repo}' },
      argument: { name: 'repo', value: '' },
      context: { arguments: { owner: 'acme' } },
    });
    expect(result.completion.values).toEqual(['acme-x']);
  });

  it('answers empty, and aborts the completer, when it does not answer within the cut-off', async () => {
    const { server, complete } = capture();
    let seen: AbortSignal | undefined;
    const never: Completer = ({ signal }) => {
      seen = signal;
      return new Promise(() => {});
    };
    const reasons: string[] = [];
    registerCompletions(
      server,
      { prompts: { slow: { thing: never } } },
      { cache: new CompletionCache(60_000, 20), onError: (m) => reasons.push(m) },
    );
    const result = await complete(prompt('slow', 'thing', 'a'));
    expect(result).toEqual({ completion: { values: [], hasMore: false } });
    expect(seen?.aborted).toBe(true);
    expect(reasons).toEqual(['completion cut off after 20 ms']);
  });

  it('aborts the completer when the client cancels the request, and answers empty', async () => {
    const { server, complete } = capture();
    let seen: AbortSignal | undefined;
    registerCompletions(server, {
      prompts: {
        slow: {
          thing: ({ signal }) => {
            seen = signal;
            return new Promise(() => {});
          },
        },
      },
    });
    const request = new AbortController();
    const answer = complete(prompt('slow', 'thing', 'a'), request.signal);
    await expect.poll(() => seen).toBeDefined();
    request.abort();
    expect(await answer).toEqual({ completion: { values: [], hasMore: false } });
    expect(seen?.aborted).toBe(true);
  });

  it('reuses an answer for the same question (same value and context) from the shared cache', async () => {
    const cache = new CompletionCache();
    const calls: string[] = [];
    const completer: Completer = ({ value }) => {
      calls.push(value);
      return [`${value}1`];
    };
    // Two instances (as over HTTP) sharing one cache.
    for (const value of ['a', 'a', 'b']) {
      const { server, complete } = capture();
      registerCompletions(server, { prompts: { p: { x: completer } } }, { cache });
      expect((await complete(prompt('p', 'x', value))).completion.values).toEqual([`${value}1`]);
    }
    expect(calls).toEqual(['a', 'b']);
  });

  it('does not cache the answer to an outsized question (a huge context)', async () => {
    const { server, complete } = capture();
    let calls = 0;
    registerCompletions(server, {
      prompts: {
        p: {
          x: () => {
            calls++;
            return ['v'];
          },
        },
      },
    });
    const big = { other: 'o'.repeat(10_000) };
    await complete(prompt('p', 'x', '', big));
    await complete(prompt('p', 'x', '', big));
    expect(calls).toBe(2);
  });

  it('answers empty when a completer throws, and does not cache the failure', async () => {
    const { server, complete } = capture();
    let fail = true;
    const reasons: string[] = [];
    registerCompletions(
      server,
      {
        prompts: {
          p: {
            x: () => {
              if (fail) throw new Error('upstream 500');
              return ['ok'];
            },
          },
        },
      },
      { onError: (m) => reasons.push(m) },
    );
    expect((await complete(prompt('p', 'x', ''))).completion).toEqual({ values: [], hasMore: false });
    expect(reasons).toEqual(['completion failed: upstream 500']);
    fail = false;
    expect((await complete(prompt('p', 'x', ''))).completion.values).toEqual(['ok']);
  });

  it('answers empty for an argument without a completer, a fixed resource, or an over-long value', async () => {
    const { server, complete } = capture();
    registerCompletions(server, {
      prompts: { p: { x: () => ['v'] } },
      templates: { 't://{a}': {} },
      resources: ['memo://insights'],
    });
    const empty = { completion: { values: [], hasMore: false } };
    expect(await complete(prompt('p', 'other', ''))).toEqual(empty);
    expect(await complete(prompt('p', 'toString', ''))).toEqual(empty);
    expect(
      await complete({ ref: { type: 'ref/resource', uri: 't://{a}' }, argument: { name: 'a', value: '' } }),
    ).toEqual(empty);
    expect(
      await complete({
        ref: { type: 'ref/resource', uri: 'memo://insights' },
        argument: { name: 'a', value: '' },
      }),
    ).toEqual(empty);
    expect(await complete(prompt('p', 'x', 'v'.repeat(5000)))).toEqual(empty);
  });

  it('refuses an unknown prompt or resource template with -32602', async () => {
    const { server, complete } = capture();
    registerCompletions(server, { prompts: { p: { x: () => ['v'] } } });
    for (const params of [
      prompt('nope', 'x', ''),
      { ref: { type: 'ref/resource', uri: 'nope://{x}' }, argument: { name: 'x', value: '' } },
    ]) {
      const error = await complete(params).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ProtocolError);
      expect((error as ProtocolError).code).toBe(ProtocolErrorCode.InvalidParams);
    }
  });
});

describe('registerPrompt', () => {
  it('registers the prompt and its argument completions together', async () => {
    const { server, complete, handlers } = capture();
    registerPrompt(server, {
      name: 'greet',
      title: 'Greet',
      description: 'Say hello',
      argsSchema: z.object({ who: z.string().min(1), tone: z.string().optional() }),
      complete: { who: ({ value }) => completeFrom(['ada', 'alan'], value) },
      render: ({ who }) => ({
        messages: [{ role: 'user', content: { type: 'text', text: `hello ${who}` } }],
      }),
    });
    expect((await complete(prompt('greet', 'who', 'al'))).completion.values).toEqual(['alan']);
    expect(server.server.getCapabilities().prompts).toBeDefined();
    expect(handlers.has('prompts/get')).toBe(true);
  });
});
