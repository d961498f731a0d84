import { describe, expect, it } from 'vitest';
import { z } from '../src/schema.js';
import { ToolError } from '../src/server/errors.js';
import { LOCAL_HINTS } from '../src/server/hints.js';
import { isScopedTool, requireScoped, type Scope, scopedTool } from '../src/server/scope.js';
import { defineTool, type ToolContext, textResult } from '../src/server/tool.js';

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
