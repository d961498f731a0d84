// Tool snapshots: a missing, stale or orphaned snapshot fails with the refresh command; update
// mode writes and removes them; the committed text is stable whatever the key order served.
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Tool } from '@modelcontextprotocol/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkToolSnapshots, readToolSnapshots, renderToolsTable, toolSnapshotText } from '../src/index.js';

const tool = (name: string, description = `${name}.`): Tool => ({
  name,
  description,
  inputSchema: { type: 'object', properties: { b: { type: 'string' }, a: { type: 'number' } } },
  annotations: { readOnlyHint: true, destructiveHint: false },
});
const refresh = 'UPDATE_TOOLSNAPS=1 pnpm test';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'harness-toolsnaps-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('toolSnapshotText', () => {
  it('is pretty JSON with keys sorted at every level and a trailing newline; arrays keep their order', () => {
    const a = toolSnapshotText({
      tool: { ...tool('t'), inputSchema: { type: 'object', required: ['z', 'a'] } },
    });
    const b = toolSnapshotText({
      tool: {
        inputSchema: { required: ['z', 'a'], type: 'object' },
        annotations: tool('t').annotations,
        description: 't.',
        name: 't',
      } as Tool,
    });
    expect(a).toBe(b);
    expect(a.endsWith('}\n')).toBe(true);
    expect(a.split('\n')[1]).toBe('  "annotations": {');
    expect(a).toContain('"required": [\n      "z",\n      "a"\n    ]');
  });

  it('wraps the entry with its toolset when the server has toolsets', () => {
    const text = toolSnapshotText({ tool: tool('t'), toolset: 'issues' });
    expect(JSON.parse(text)).toEqual({
      tool: JSON.parse(toolSnapshotText({ tool: tool('t') })),
      toolset: 'issues',
    });
  });
});

describe('checkToolSnapshots', () => {
  it('passes when every served tool has its snapshot and no snapshot is left over', async () => {
    await writeFile(join(dir, 'a.json'), toolSnapshotText({ tool: tool('a') }));
    expect(await checkToolSnapshots(dir, [{ tool: tool('a') }], { refresh })).toEqual({
      problems: [],
      written: [],
      removed: [],
    });
  });

  it('fails on a missing snapshot, saying how to write it', async () => {
    const { problems } = await checkToolSnapshots(dir, [{ tool: tool('a') }], { refresh });
    expect(problems).toEqual([
      `a: no snapshot at ${join(dir, 'a.json')}; run ${refresh} to write it, then commit it`,
    ]);
    expect(await readdir(dir)).toEqual([]);
  });

  it('fails on a stale snapshot, naming the first differing line and how to refresh', async () => {
    await writeFile(join(dir, 'a.json'), toolSnapshotText({ tool: tool('a', 'Old words.') }));
    const { problems } = await checkToolSnapshots(dir, [{ tool: tool('a', 'New words.') }], { refresh });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(`a: tools/list entry differs from ${join(dir, 'a.json')}`);
    expect(problems[0]).toContain('committed "  \\"description\\": \\"Old words.\\","');
    expect(problems[0]).toContain('served "  \\"description\\": \\"New words.\\","');
    expect(problems[0]).toContain(`run ${refresh} and commit the diff`);
  });

  it('fails on a moved toolset, and on a hand-edited file that parses the same but differs in text', async () => {
    await writeFile(join(dir, 'a.json'), toolSnapshotText({ tool: tool('a'), toolset: 'repos' }));
    await writeFile(join(dir, 'b.json'), JSON.stringify(tool('b')));
    const { problems } = await checkToolSnapshots(
      dir,
      [{ tool: tool('a'), toolset: 'issues' }, { tool: tool('b') }],
      { refresh },
    );
    expect(problems.map((p) => p.split(':')[0])).toEqual(['a', 'b']);
  });

  it('fails on the snapshot of a tool that is no longer served', async () => {
    await writeFile(join(dir, 'a.json'), toolSnapshotText({ tool: tool('a') }));
    await writeFile(join(dir, 'gone.json'), toolSnapshotText({ tool: tool('gone') }));
    const { problems } = await checkToolSnapshots(dir, [{ tool: tool('a') }], { refresh });
    expect(problems).toEqual([
      `gone: ${join(dir, 'gone.json')} is the snapshot of a tool that is no longer served; run ${refresh} to remove it`,
    ]);
  });

  it('update mode writes missing and stale snapshots, removes orphans, leaves current ones, reports no problem', async () => {
    const snaps = join(dir, '__toolsnaps__');
    await checkToolSnapshots(snaps, [{ tool: tool('same') }], { update: true });
    await writeFile(join(snaps, 'stale.json'), toolSnapshotText({ tool: tool('stale', 'Old.') }));
    await writeFile(join(snaps, 'gone.json'), toolSnapshotText({ tool: tool('gone') }));
    const served = [
      { tool: tool('same') },
      { tool: tool('stale', 'New.') },
      { tool: tool('new'), toolset: 'x' },
    ];
    const report = await checkToolSnapshots(snaps, served, { update: true });
    expect(report.problems).toEqual([]);
    expect(report.written.sort()).toEqual([join(snaps, 'new.json'), join(snaps, 'stale.json')]);
    expect(report.removed).toEqual([join(snaps, 'gone.json')]);
    expect((await readdir(snaps)).sort()).toEqual(['new.json', 'same.json', 'stale.json']);
    expect(await readFile(join(snaps, 'stale.json'), 'utf8')).toBe(
      toolSnapshotText({ tool: tool('stale', 'New.') }),
    );
    expect(await checkToolSnapshots(snaps, served)).toEqual({ problems: [], written: [], removed: [] });
  });

  it('readToolSnapshots reads back entries and toolsets; a missing directory is empty', async () => {
    await checkToolSnapshots(dir, [{ tool: tool('a') }, { tool: tool('b'), toolset: 'issues' }], {
      update: true,
    });
    const read = await readToolSnapshots(dir);
    expect([...read.keys()].sort()).toEqual(['a', 'b']);
    expect(read.get('a')).toEqual({ tool: tool('a') });
    expect(read.get('b')).toEqual({ tool: tool('b'), toolset: 'issues' });
    expect((await readToolSnapshots(join(dir, 'none'))).size).toBe(0);
  });
});

describe('renderToolsTable', () => {
  const row = (description: string) =>
    renderToolsTable([{ name: 't', description, inputSchema: { type: 'object' } } as Tool]).split('\n')[2];

  it('keeps the first sentence, past abbreviations and periods inside parentheses', () => {
    expect(row('Local businesses and places (e.g. cafés). Needs a plan.')).toBe(
      '| `t` |  | write | Local businesses and places (e.g. cafés). |',
    );
    expect(row('Read a web page (e.g. an article. Or a PDF) as Markdown. Then more.')).toContain(
      '| Read a web page (e.g. an article. Or a PDF) as Markdown. |',
    );
    expect(row('Files, folders, etc. in a tree, i.e. a listing. Second.')).toContain(
      '| Files, folders, etc. in a tree, i.e. a listing. |',
    );
    expect(row('First line\nsecond line')).toContain('| First line |');
    expect(row('A | pipe. Next.')).toContain('| A \\| pipe. |');
  });
});
