/**
 * Resource links in search_files results (MCP "Tool Result": resource_link): the files found come
 * with file:// links the host can open through resources/read, at most 10 a result; directories
 * found get none.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Connection } from '@refmcp/test-harness';
import { tempDir } from '@refmcp/test-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from './support.js';

let conn: Connection;
let dir: string;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  await mkdir(join(dir, 'notes.md'));
  for (let i = 0; i < 12; i++) await writeFile(join(dir, `n${String(i).padStart(2, '0')}.md`), `note ${i}\n`);
  conn = await startServer([dir]);
});
afterAll(async () => {
  await conn?.close();
  await cleanup?.();
});

describe('search_files links what it finds', () => {
  it('the first 10 files as resource_link blocks that resources/read opens; no link for a directory', async () => {
    const r = await conn.client.callTool({ name: 'search_files', arguments: { path: dir, pattern: '*.md' } });
    const links = (r.content as Array<{ type: string; uri?: string; name?: string }>).filter(
      (b) => b.type === 'resource_link',
    );
    expect(links.map((l) => l.name)).toEqual(
      Array.from({ length: 10 }, (_, i) => `n${String(i).padStart(2, '0')}.md`),
    );
    expect(links[0]?.uri).toBe(pathToFileURL(join(dir, 'n00.md')).href);
    expect(links.some((l) => l.name === 'notes.md')).toBe(false);
    const read = await conn.client.readResource({ uri: links[3]?.uri ?? '' });
    expect(read.contents[0]).toMatchObject({ text: 'note 3\n' });
  });
});
