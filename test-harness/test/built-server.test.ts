// startBuiltServer / callChecked: the built bin's launch target, tool calls whose structuredContent
// must fit the tool's outputSchema, and the tool list fetched once over every page.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  builtServerTarget,
  callChecked,
  callOk,
  connect,
  listedTools,
  outputProblems,
} from '../src/index.js';

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
const start = (name: string) => connect({ command: process.execPath, args: [fixture(name)] });

describe('callChecked', () => {
  it('rejects a result whose structuredContent does not match the outputSchema, naming the tool', async () => {
    const conn = await start('mismatch-server.mjs');
    try {
      await expect(callChecked(conn, 'add')).rejects.toThrow(
        /^add: structuredContent does not match outputSchema: .*sum/,
      );
      await expect(callChecked(conn, 'add_bare')).rejects.toThrow(
        'add_bare: no structuredContent although an outputSchema is declared',
      );
    } finally {
      await conn.close();
    }
  });

  it('passes an isError result and a tool without outputSchema through, with their text', async () => {
    const conn = await start('mismatch-server.mjs');
    try {
      const failed = await callChecked(conn, 'fail');
      expect(failed.isError).toBe(true);
      expect(failed.text).toBe('no');
      expect((await callChecked(conn, 'plain')).text).toBe('plain');
      await expect(callOk(conn, 'fail')).rejects.toThrow('fail {} → isError: no');
      expect(await callOk(conn, 'plain')).toBe('plain');
    } finally {
      await conn.close();
    }
  });

  it('accepts a fitting structuredContent; the tool list is read over every page, once', async () => {
    const conn = await start('good-server.mjs'); // tools/list pages of two
    try {
      const result = await callChecked(conn, 'add', { a: 1, b: 2 });
      expect(result.structuredContent).toEqual({ sum: 3 });
      expect(result.text).toBe('3');
      const tools = await listedTools(conn);
      expect(tools.length).toBeGreaterThan(2);
      expect(await listedTools(conn)).toBe(tools);
      await expect(callChecked(conn, 'no_such_tool')).rejects.toThrow(/no_such_tool/);
    } finally {
      await conn.close();
    }
  });

  it('outputProblems: [] without an outputSchema, the validator messages otherwise', () => {
    const tool = {
      name: 't',
      inputSchema: { type: 'object' as const },
      outputSchema: { type: 'object' as const, properties: { n: { type: 'number' } }, required: ['n'] },
    };
    expect(outputProblems({ ...tool, outputSchema: undefined }, { content: [] })).toEqual([]);
    expect(outputProblems(tool, { content: [], structuredContent: { n: 1 } })).toEqual([]);
    expect(outputProblems(tool, { content: [], structuredContent: {} })).toEqual([
      expect.stringMatching(/^structuredContent does not match outputSchema: .*n/),
    ]);
  });
});

describe('builtServerTarget', () => {
  it('names the missing dist file of an unbuilt server', () => {
    expect(() => builtServerTarget('no-such-server')).toThrow(
      /servers\/no-such-server\/dist\/index\.js is missing: build the server first/,
    );
  });
});
