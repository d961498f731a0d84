import type { McpServer } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { z } from '../src/schema.js';
import { ToolError } from '../src/server/errors.js';
import { LOCAL_HINTS } from '../src/server/hints.js';
import { registerTools } from '../src/server/run.js';
import { isScopedTool, outOfScope, requireScoped, type Scope, scopedTool } from '../src/server/scope.js';
import {
  defineTool,
  type ToolContext,
  type ToolDefinition,
  type ToolResult,
  textResult,
} from '../src/server/tool.js';

const channels: Scope<[channel: string]> = {
  check(channel) {
    if (channel !== 'general') throw new ToolError(`${channel} is outside the allowed channels`);
  },
};
const seen: string[] = [];
const post = defineTool({
  name: 'post',
  title: 'Post',
  description: 'Post to a channel',
  inputSchema: z.strictObject({ channel: z.string(), text: z.string() }),
  annotations: LOCAL_HINTS.additive,
  handler: async ({ channel }) => {
    seen.push(channel);
    return textResult(`posted to ${channel}`);
  },
});
const ctx = {} as ToolContext;

describe('scopedTool', () => {
  it('checks the target picked from the arguments before the handler runs', async () => {
    const tool = scopedTool(channels, (a) => [a.channel], post);
    await expect(tool.handler({ channel: 'random', text: 'x' }, ctx)).rejects.toThrow(
      'random is outside the allowed channels',
    );
    expect(seen).toEqual([]);
    expect(await tool.handler({ channel: 'general', text: 'x' }, ctx)).toEqual(
      textResult('posted to general'),
    );
    expect(seen).toEqual(['general']);
  });

  it('without a scope the handler runs unguarded; both are recognised by requireScoped', async () => {
    const open = scopedTool(undefined, (a) => [a.channel], post);
    expect(await open.handler({ channel: 'random', text: 'x' }, ctx)).toEqual(textResult('posted to random'));
    expect(isScopedTool(open)).toBe(true);
    expect(isScopedTool(post)).toBe(false);
    const needs = (t: { inputSchema: z.ZodObject }) => 'channel' in t.inputSchema.shape;
    expect(requireScoped([open], needs)).toEqual([open]);
    expect(() => requireScoped([open, post], needs)).toThrow('tool(s) not confined to the scope: post');
  });
});

describe('scopedTool with confirmation, through registerTools', () => {
  type Callback = (args: unknown, ctx: unknown) => Promise<ToolResult>;
  const remove = defineTool({
    name: 'delete_message',
    title: 'Delete message',
    description: 'Delete a message',
    inputSchema: z.strictObject({ channel: z.string() }),
    annotations: LOCAL_HINTS.destructive,
    confirm: ({ channel }) => `Delete the message in ${channel}?`,
    handler: async ({ channel }) => textResult(`deleted in ${channel}`),
  });
  const checks: string[] = [];
  const counting: Scope<[channel: string]> = {
    check(channel) {
      checks.push(channel);
      if (channel !== 'general') throw outOfScope(channel, 'channels', '--channels', 'general');
    },
  };

  /** The SDK-facing callback of `tool` on a stand-in server whose client declares form elicitation. */
  function register(tool: ToolDefinition) {
    let callback: Callback | undefined;
    const server = {
      registerTool: (_n: string, _c: unknown, cb: Callback) => {
        callback = cb;
      },
      server: { getClientCapabilities: () => ({ elicitation: { form: {} } }) },
    } as unknown as McpServer;
    registerTools(server, [tool], {
      secrets: [],
      shutdown: new AbortController().signal,
      maxResultBytes: 1 << 20,
    });
    const asked: string[] = [];
    const call = (args: unknown) =>
      (callback as Callback)(args, {
        mcpReq: {
          signal: new AbortController().signal,
          elicitInput: async (req: { message: string }) => {
            asked.push(req.message);
            return { action: 'accept', content: {} };
          },
        },
      });
    return { call, asked };
  }

  it('refuses an out-of-scope target without asking the user, naming the scope', async () => {
    const { call, asked } = register(scopedTool(counting, (a) => [a.channel], remove));
    const refused = await call({ channel: 'random' });
    expect(refused.isError).toBe(true);
    expect(refused.content[0]).toMatchObject({
      text: expect.stringContaining(
        'random is outside the channels this server may access (--channels general)',
      ),
    });
    expect(asked).toEqual([]);
  });

  it('asks about an in-scope target once the scope allows it, checking the scope once', async () => {
    const { call, asked } = register(scopedTool(counting, (a) => [a.channel], remove));
    checks.length = 0;
    const done = await call({ channel: 'general' });
    expect(done).toEqual(textResult('deleted in general'));
    expect(asked).toEqual(['Delete the message in general?']);
    expect(checks).toEqual(['general']);
  });

  it('checks the scope in the handler when no confirmation ran', async () => {
    const tool = scopedTool(counting, (a) => [a.channel], remove);
    checks.length = 0;
    await expect(tool.handler({ channel: 'random' }, ctx)).rejects.toThrow('outside the channels');
    expect(await tool.handler({ channel: 'general' }, ctx)).toEqual(textResult('deleted in general'));
    expect(checks).toEqual(['random', 'general']);
  });
});
