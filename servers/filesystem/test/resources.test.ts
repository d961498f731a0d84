/**
 * Files as resources through the built server over stdio: the file:// template, paginated
 * resources/list (ALL-05), resources/read (text, blob, containment, budget), and subscriptions:
 * resources/subscribe on the 2025-11-25 era, subscriptions/listen on the 2026-07-28 era (only
 * URIs inside the allowed directories acknowledged, each then watched: issue 28).
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ListResourcesResult } from '@modelcontextprotocol/client';
import { type Connection, findDuplicates, followPages, tempDir } from '@refmcp/test-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeTree } from './fixtures/trees.js';
import { startServer } from './support.js';

let dir: string;
let outside: string;
let conn: Connection;
let paged: Connection;
let modern: Connection;
const cleanups: (() => Promise<void>)[] = [];
const uri = (rel: string) => pathToFileURL(join(dir, rel)).href;
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const LISTED = [
  '.gitignore',
  'a.txt',
  'b.md',
  'docs/c.txt',
  'docs/d.txt',
  'img.png',
  'notes/e.txt',
  'notes/f.txt',
  'z.json',
];

/** Resolves with the next resources/updated URI, or undefined after `ms`. */
function nextUpdate(conn: Connection, ms: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(undefined), ms);
    conn.client.setNotificationHandler('notifications/resources/updated', (n) => {
      clearTimeout(timer);
      resolve(n.params.uri);
    });
  });
}

beforeAll(async () => {
  const a = await tempDir('refmcp-res-');
  const b = await tempDir('refmcp-res-outside-');
  cleanups.push(a.cleanup, b.cleanup);
  dir = a.dir;
  outside = b.dir;
  writeTree(dir, {
    '.gitignore': 'ignored.log\n',
    'a.txt': 'hello resource\n',
    'b.md': '# title\n',
    'docs/c.txt': 'c',
    'docs/d.txt': 'd',
    'notes/e.txt': 'e',
    'notes/f.txt': 'f',
    'z.json': '{}',
    'ignored.log': 'noise',
    'img.png': PNG,
    'large.bin': Buffer.alloc(0),
  });
  // large.bin is gitignored below so the listing stays as LISTED; it is over the read budget.
  writeFileSync(join(dir, '.gitignore'), 'ignored.log\nlarge.bin\n');
  writeFileSync(join(dir, 'large.bin'), 'x'.repeat(5000));
  mkdirSync(join(dir, '.git'));
  writeFileSync(join(dir, '.git', 'config'), '[core]\n');
  writeFileSync(join(outside, 'secret.txt'), 'secret');
  symlinkSync(join(outside, 'secret.txt'), join(dir, 'escape.txt'));
  [conn, paged, modern] = await Promise.all([
    startServer([dir, '--max-file-bytes', '4096']),
    startServer([dir, '--max-entries', '3']),
    startServer([dir], 'modern'),
  ]);
});

afterAll(async () => {
  await Promise.all([conn, paged, modern].map((c) => c?.close()));
  for (const c of cleanups) await c();
});

describe('resources', () => {
  it('offers a file:// resource template', async () => {
    const { resourceTemplates } = await conn.client.listResourceTemplates();
    expect(resourceTemplates).toEqual([
      expect.objectContaining({ name: 'file', uriTemplate: 'file://{+path}' }),
    ]);
  });

  it('ALL-05: refuses cursors it never issued on resources/list and resources/templates/list', async () => {
    for (const method of ['resources/list', 'resources/templates/list'] as const) {
      await expect(conn.client.request({ method, params: { cursor: 'bogus' } })).rejects.toThrow(/cursor/i);
    }
  });

  it('ALL-05: resources/list pages through the files (gitignored, .git and outside links left out)', async () => {
    const walk = await followPages(
      // A raw request: client.listResources() without a cursor would aggregate every page itself.
      (cursor: string | undefined) =>
        paged.client.request({
          method: 'resources/list',
          params: cursor ? { cursor } : {},
        }) as Promise<ListResourcesResult>,
      (page: ListResourcesResult) => page.nextCursor,
    );
    expect(walk.pages.every((p) => p.resources.length <= 3)).toBe(true);
    const uris = walk.pages.flatMap((p) => p.resources.map((r) => r.uri));
    expect(findDuplicates(uris, (u) => u)).toEqual([]);
    expect(uris).toEqual(LISTED.map(uri));
    expect(walk.pages.length).toBe(Math.ceil(LISTED.length / 3));
    expect(walk.pages[0]?.resources[1]).toEqual({ uri: uri('a.txt'), name: 'a.txt' });
  });

  it('reads a text file as text and a binary file as a base64 blob', async () => {
    const text = await conn.client.readResource({ uri: uri('a.txt') });
    expect(text.contents).toEqual([{ uri: uri('a.txt'), mimeType: 'text/plain', text: 'hello resource\n' }]);
    const blob = await conn.client.readResource({ uri: uri('img.png') });
    expect(blob.contents).toEqual([
      { uri: uri('img.png'), mimeType: 'image/png', blob: PNG.toString('base64') },
    ]);
  });

  it('refuses reads outside the allowed directories, through links, missing files and over-budget files', async () => {
    await expect(
      conn.client.readResource({ uri: pathToFileURL(join(outside, 'secret.txt')).href }),
    ).rejects.toThrow(/outside the allowed directories/);
    await expect(conn.client.readResource({ uri: uri('escape.txt') })).rejects.toThrow(
      /outside the allowed directories/,
    );
    await expect(conn.client.readResource({ uri: uri('missing.txt') })).rejects.toThrow(/not found/i);
    await expect(conn.client.readResource({ uri: uri('large.bin') })).rejects.toThrow(
      /5000 bytes, over the 4096-byte limit.*read_text_file/,
    );
  });

  it('2025-11-25: resources/subscribe delivers resources/updated on change, and unsubscribe stops it', async () => {
    await conn.client.subscribeResource({ uri: uri('notes/e.txt') });
    const update = nextUpdate(conn, 5000);
    await appendFile(join(dir, 'notes', 'e.txt'), 'changed\n');
    expect(await update).toBe(uri('notes/e.txt'));

    await conn.client.unsubscribeResource({ uri: uri('notes/e.txt') });
    const none = nextUpdate(conn, 600);
    await appendFile(join(dir, 'notes', 'e.txt'), 'again\n');
    expect(await none).toBeUndefined();
  });

  it('refuses to subscribe to a path outside the allowed directories', async () => {
    await expect(
      conn.client.subscribeResource({ uri: pathToFileURL(join(outside, 'secret.txt')).href }),
    ).rejects.toThrow(/outside the allowed directories/);
  });

  it('2026-07-28: a listen stream with resourceSubscriptions receives updates of a file the client read', async () => {
    expect(modern.era).toBe('modern');
    const target = uri('docs/c.txt');
    await modern.client.readResource({ uri: target });
    const subscription = await modern.client.listen({ resourceSubscriptions: [target] });
    try {
      expect(subscription.honoredFilter.resourceSubscriptions).toEqual([target]);
      const update = nextUpdate(modern, 5000);
      await appendFile(join(dir, 'docs', 'c.txt'), 'changed\n');
      expect(await update).toBe(target);
    } finally {
      await subscription.close();
    }
  });

  it('2026-07-28: listen acknowledges a file never read and then delivers its updates (issue 28)', async () => {
    const target = uri('notes/f.txt');
    const subscription = await modern.client.listen({ resourceSubscriptions: [target] });
    try {
      expect(subscription.honoredFilter.resourceSubscriptions).toEqual([target]);
      const update = nextUpdate(modern, 5000);
      await appendFile(join(dir, 'notes', 'f.txt'), 'changed\n');
      expect(await update).toBe(target);
    } finally {
      await subscription.close();
    }
  });

  it('2026-07-28: listen acknowledges only URIs inside the allowed directories (issue 28)', async () => {
    const inside = uri('docs/d.txt');
    const asked = [
      pathToFileURL(join(outside, 'secret.txt')).href,
      uri('escape.txt'),
      'https://example.com/x',
      inside,
    ];
    const subscription = await modern.client.listen({ resourceSubscriptions: asked });
    try {
      expect(subscription.honoredFilter.resourceSubscriptions).toEqual([inside]);
    } finally {
      await subscription.close();
    }
    const none = await modern.client.listen({
      resourceSubscriptions: [pathToFileURL(join(outside, 'secret.txt')).href],
    });
    try {
      expect(none.honoredFilter.resourceSubscriptions).toBeUndefined();
    } finally {
      await none.close();
    }
  });
});
