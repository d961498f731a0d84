// The harness's building blocks: connect's raw stdout recording, argument synthesis, schema
// validation, pagination walking, invisible-character detection and host config reading.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import {
  allowsExtraKeys,
  assertNoInvisible,
  compileJsonSchema,
  connect,
  exitsWithin,
  findDuplicates,
  findInvisible,
  followPages,
  HostConfigError,
  hostileCases,
  isAlive,
  readHostConfig,
  serverBin,
  synthesizeArgs,
  toolMetadataProblems,
} from '../src/index.js';

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'harness-helpers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('connect', () => {
  it('records every stdout line and separates the non-JSON-RPC ones (legacy era)', async () => {
    const conn = await connect({ command: process.execPath, args: [fixture('bad-server.mjs')] });
    try {
      expect(conn.era).toBe('legacy');
      expect(conn.protocolVersion).toBe('2025-11-25');
      expect(conn.serverInfo?.name).toBe('bad-fixture');
      expect(conn.nonJsonStdout()).toEqual(['credentials loaded']);
      expect(conn.stdoutLines()[0]).toBe('credentials loaded');
      expect(conn.stdoutLines().length).toBeGreaterThan(1); // the initialize response
      expect(conn.exitStatus()).toBeUndefined();
    } finally {
      await conn.close();
    }
    // bad-server ignores EOF; close() escalated to a signal.
    expect((await conn.exited).signal).toBe('SIGTERM');
  });

  it('speaks the modern era, and the server exits on closeStdin', async () => {
    const conn = await connect({
      command: process.execPath,
      args: [fixture('good-server.mjs')],
      era: 'modern',
      env: { DEBUG: '1' },
    });
    expect(conn.era).toBe('modern');
    expect(conn.protocolVersion).toBe('2026-07-28');
    const result = await conn.client.callTool({ name: 'echo', arguments: { text: 'hi', times: 2 } });
    expect(result.content).toEqual([{ type: 'text', text: 'hihi' }]);
    expect(conn.stderr()).toContain('good-server debug: starting');
    expect(conn.requestLabel(999)).toBeUndefined();
    conn.closeStdin();
    expect(await conn.exited).toEqual({ code: 0, signal: null });
    expect(conn.nonJsonStdout()).toEqual([]);
    await conn.close();
  });

  it('sees the server exit even while a helper holds its stdout, and close() kills that helper', async () => {
    const conn = await connect({ command: process.execPath, args: [fixture('pipe-holder-server.mjs')] });
    await new Promise((resolve) => setTimeout(resolve, 300)); // let the descendant tracker see the helper
    const helpers = conn.descendantsSeen();
    expect(helpers).toHaveLength(1);
    conn.closeStdin();
    expect(await exitsWithin(conn.exited, 2000)).toBe(true);
    expect(conn.exitStatus()).toEqual({ code: 0, signal: null });
    expect(helpers.every((p) => isAlive(p))).toBe(true);
    await conn.close();
    expect(helpers.some((p) => isAlive(p))).toBe(false);
  });

  it('gives up on a server that never answers the handshake, and kills it', async () => {
    await expect(
      connect({ command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'], timeoutMs: 300 }),
    ).rejects.toThrow(/connect failed: .*timed out/i);
  });

  it('fails with the server stderr when the handshake cannot happen', async () => {
    await expect(
      connect({
        command: process.execPath,
        args: ['-e', 'console.error("missing --root"); process.exit(2)'],
      }),
    ).rejects.toThrow(/connect failed[\s\S]*missing --root/);
    await expect(connect({ command: join(dir, 'no-such-binary') })).rejects.toThrow(/ENOENT/);
  });

  it('serverBin points at the built bin of a repo server', () => {
    const bin = serverBin('filesystem');
    expect(bin.command).toBe(process.execPath);
    expect(bin.args).toEqual([
      fileURLToPath(new URL('../../servers/filesystem/dist/index.js', import.meta.url)),
    ]);
  });
});

describe('argument synthesis', () => {
  const schema = {
    type: 'object',
    properties: {
      path: { type: 'string', minLength: 2 },
      mode: { enum: ['fast', 'slow'] },
      limit: { type: 'integer', minimum: 5, maximum: 10 },
      ratio: { type: 'number', exclusiveMinimum: 0 },
      flag: { type: 'boolean' },
      tags: { type: 'array', items: { type: 'string', pattern: '^[0-9]+$' }, minItems: 2 },
      ref: { $ref: '#/$defs/owner' },
      either: { anyOf: [{ type: 'null' }, { type: 'string', format: 'uri' }] },
      optional: { type: 'string' },
      defaulted: { type: 'integer', default: 42 },
      merged: {
        allOf: [
          { type: 'object', properties: { x: { type: 'integer' } }, required: ['x'] },
          { required: ['y'], properties: { y: { const: 'k' } } },
        ],
      },
    },
    required: ['path', 'mode', 'limit', 'ratio', 'flag', 'tags', 'ref', 'either', 'defaulted', 'merged'],
    $defs: { owner: { type: 'object', properties: { login: { type: 'string' } }, required: ['login'] } },
  };

  it('gives every required property a value its schema accepts, and leaves optional ones out', () => {
    expect(synthesizeArgs(schema)).toEqual({
      path: 'harness',
      mode: 'fast',
      limit: 5,
      ratio: 0.5,
      flag: false,
      tags: ['1', '1'],
      ref: { login: 'harness' },
      either: 'https://example.com/',
      defaulted: 42,
      merged: { x: 1, y: 'k' },
    });
  });

  it('builds the three strict hostile cases and four odd strings per string property', () => {
    const tool = { name: 't', inputSchema: { ...schema, additionalProperties: false } } as never;
    const { strict, odd } = hostileCases(tool);
    expect(strict.map((c) => c.label)).toEqual([
      'required "path" missing',
      'wrong type path=123',
      'unknown extra key "harness_unknown_key"',
    ]);
    expect(strict[0]?.args).not.toHaveProperty('path');
    expect(odd.map((c) => c.label)).toContain('optional: lone surrogate \\ud800');
    expect(odd.filter((c) => c.prop === 'path')).toHaveLength(4);
  });

  it('tests unknown keys unless the schema deliberately allows them', () => {
    expect(allowsExtraKeys({ type: 'object' })).toBe(false);
    expect(allowsExtraKeys({ type: 'object', additionalProperties: false })).toBe(false);
    expect(allowsExtraKeys({ type: 'object', additionalProperties: true })).toBe(true);
    expect(allowsExtraKeys({ type: 'object', additionalProperties: { type: 'string' } })).toBe(true);
  });
});

describe('JSON Schema validity', () => {
  it('accepts 2020-12 (default), 2019-09 and draft-07 schemas', () => {
    expect(compileJsonSchema({ type: 'object', properties: { a: { type: 'string' } } })).toEqual({
      ok: true,
    });
    const draft2020 = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $id: 'https://example.com/tool.json',
      type: 'object',
    };
    expect(
      compileJsonSchema({ ...draft2020, properties: { p: { prefixItems: [{ type: 'string' }] } } }),
    ).toEqual({ ok: true });
    expect(compileJsonSchema({ ...draft2020 })).toEqual({ ok: true }); // same $id again
    expect(
      compileJsonSchema({ $schema: 'https://json-schema.org/draft/2019-09/schema', type: 'object' }),
    ).toEqual({ ok: true });
    expect(compileJsonSchema({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object' })).toEqual(
      { ok: true },
    );
    expect(compileJsonSchema({ type: 'object', 'x-custom': 1 })).toEqual({ ok: true });
  });
  it('rejects what is not a schema', () => {
    expect(compileJsonSchema({ type: 'objekt' }).ok).toBe(false);
    expect(compileJsonSchema({ type: 'object', properties: { a: { $ref: '#/$defs/missing' } } }).ok).toBe(
      false,
    );
    expect(compileJsonSchema({ $schema: 'https://example.com/my-dialect', type: 'object' })).toMatchObject({
      ok: false,
      error: /unsupported/,
    });
    expect(compileJsonSchema('nope').ok).toBe(false);
  });
  it('toolMetadataProblems names each missing piece', () => {
    expect(toolMetadataProblems({ name: 'bad name!', inputSchema: { type: 'string' } } as never)).toEqual([
      'no title',
      'no description',
      'name "bad name!" is not 1–128 of [A-Za-z0-9_.-]',
      'inputSchema.type is "string", not "object"',
      'annotation readOnlyHint missing',
      'annotation destructiveHint missing',
      'annotation idempotentHint missing',
      'annotation openWorldHint missing',
    ]);
  });
});

describe('followPages', () => {
  const pages: Record<string, { items: number[]; next?: string }> = {
    start: { items: [1, 2], next: 'b' },
    b: { items: [3, 4], next: 'c' },
    c: { items: [5] },
  };
  it('follows cursors to the end', async () => {
    const walk = await followPages(
      async (cursor?: string) => pages[cursor ?? 'start'] ?? { items: [] },
      (p) => p.next,
    );
    expect(walk.pages.flatMap((p) => p.items)).toEqual([1, 2, 3, 4, 5]);
    expect(walk.cursors).toEqual(['b', 'c']);
  });
  it('works with page numbers and hasMore', async () => {
    const walk = await followPages(
      async (page?: number) => ({ page: page ?? 1, hasMore: (page ?? 1) < 3 }),
      (p) => (p.hasMore ? p.page + 1 : undefined),
    );
    expect(walk.pages.map((p) => p.page)).toEqual([1, 2, 3]);
  });
  it('throws on a looping cursor and on too many pages', async () => {
    await expect(
      followPages(
        async () => ({ next: 'same' }),
        (p) => p.next,
      ),
    ).rejects.toThrow(/repeated/);
    let n = 0;
    await expect(
      followPages(
        async () => ({ next: String(n++) }),
        (p) => p.next,
        { maxPages: 5 },
      ),
    ).rejects.toThrow(/5 pages/);
  });
  it('findDuplicates lists repeated keys once', () => {
    expect(findDuplicates(['a', 'b', 'a', 'a', 'c', 'b'], (x) => x)).toEqual(['a', 'b']);
  });
});

describe('ALL-06 invisible characters', () => {
  it('flags zero-width, bidi override and tag characters with their positions', () => {
    const text = `a\u200Bb\u202Ec${String.fromCodePoint(0xe0041)}d`;
    expect(findInvisible(text).map((f) => `${f.codePoint}@${f.index}`)).toEqual([
      'U+200B@1',
      'U+202E@3',
      'U+E0041@5',
    ]);
    expect(() => assertNoInvisible(text, 'issue body')).toThrow(
      /issue body contains 3 invisible character\(s\): U\+200B/,
    );
  });
  it('passes ordinary text, including emoji joined with ZWJ', () => {
    expect(() => assertNoInvisible('plain text, héllo, 👨‍👩‍👧 family')).not.toThrow();
  });
});

describe('host config files', () => {
  it('reads an mcpServers entry and resolves a relative cwd against the file', () => {
    const { name, server } = readHostConfig(fixture('claude_desktop_config.json'), 'good');
    expect(name).toBe('good');
    expect(server).toEqual({
      command: 'node',
      args: ['good-server.mjs'],
      env: { GOOD_API_TOKEN: 'TESTTOKEN123' },
      cwd: fileURLToPath(new URL('./fixtures', import.meta.url)),
    });
  });
  it("reads VS Code's JSONC servers format and expands the workspaceFolder variable", () => {
    const { server } = readHostConfig(fixture('vscode-mcp.jsonc'), 'good');
    expect(server.args).toEqual([`${process.cwd()}/test/fixtures/good-server.mjs`]);
  });
  it('reads JSONC: comments and trailing commas, but not comment-like text inside strings', () => {
    const jsonc = join(dir, 'comments.jsonc');
    writeFileSync(
      jsonc,
      '{ "mcpServers": { /* c */ "s": { "command": "x // y, }", "args": ["a", "\\"/*q*/", ], }, }, // end\n }',
    );
    expect(readHostConfig(jsonc, 's').server).toMatchObject({ command: 'x // y, }', args: ['a', '"/*q*/'] });
  });
  it('explains what is wrong', () => {
    expect(() => readHostConfig(fixture('claude_desktop_config.json'), 'nope')).toThrow(
      /no server "nope" .*has: good, bad/,
    );
    expect(() => readHostConfig(fixture('vscode-mcp.jsonc'), 'remote')).toThrow(/not a stdio server/);
    expect(() => readHostConfig(fixture('claude_desktop_config.json'), undefined)).toThrow(
      /--server NAME is needed with --config: which server of .*\(has: .*good/,
    );
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '{"mcpServers": ');
    expect(() => readHostConfig(broken, 'x')).toThrow(HostConfigError);
    expect(() => readHostConfig(join(dir, 'missing.json'), 'x')).toThrow(/cannot read/);
  });
});
