/**
 * Progress on long walks (MCP "Progress"): a search over a tree of 2,000 files sends notifications/progress
 * with increasing counts when the request carries a progressToken, none when it does not, and a
 * call cancelled at its first progress notification is answered no more while the server goes on
 * serving.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Connection } from '@refmcp/test-harness';
import { resultText, tempDir } from '@refmcp/test-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from './support.js';

let conn: Connection;
let dir: string;
let cleanup: () => Promise<void>;

const progressLines = () => conn.stdoutLines().filter((l) => l.includes('"notifications/progress"'));

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  for (let d = 0; d < 20; d++) {
    const sub = join(dir, `d${d}`);
    await mkdir(sub);
    await Promise.all(Array.from({ length: 100 }, (_, f) => writeFile(join(sub, `f${f}.txt`), 'needle\n')));
  }
  conn = await startServer([dir]);
});

afterAll(async () => {
  await conn?.close();
  await cleanup?.();
});

describe('progress on a big search', () => {
  it('with a progressToken: counts of entries walked, each above the last', async () => {
    const seen: Array<{ progress: number; message?: string }> = [];
    const r = await conn.client.callTool(
      { name: 'search_files', arguments: { path: dir, pattern: '**/f99.txt' } },
      { onprogress: (p) => seen.push(p), resetTimeoutOnProgress: true },
    );
    expect(r.isError).toBeFalsy();
    expect(resultText(r)).toContain('f99.txt');
    expect(seen.length).toBeGreaterThan(0);
    for (let i = 1; i < seen.length; i++)
      expect(seen[i]?.progress).toBeGreaterThan(seen[i - 1]?.progress ?? 0);
    expect(seen[0]?.message).toMatch(/^\d+ entries walked$/);
  });

  it('without one: no progress notification at all', async () => {
    const before = progressLines().length;
    const r = await conn.client.callTool({
      name: 'search_file_contents',
      arguments: { path: dir, pattern: 'needle', maxResults: 5 },
    });
    expect(r.isError).toBeFalsy();
    expect(progressLines().length).toBe(before);
  });

  it('a call cancelled at its first progress notification rejects; the server keeps serving', async () => {
    const controller = new AbortController();
    const pending = conn.client
      .callTool(
        { name: 'directory_tree', arguments: { path: dir } },
        { signal: controller.signal, onprogress: () => controller.abort() },
      )
      .then(
        () => 'answered',
        (error: Error) => error.name,
      );
    expect(await pending).not.toBe('answered');
    const after = await conn.client.callTool({ name: 'list_allowed_directories', arguments: {} });
    expect(resultText(after)).toContain(dir);
  });
});
