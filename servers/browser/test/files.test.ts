/** BR-03: screenshots, PDFs and saved snapshots only inside --output-dir; uploads only from --upload-dir. */
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Connection } from '@refmcp/test-harness';
import { callChecked, callOk, resultText, tempDir } from '@refmcp/test-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servePages, startServer } from './support.js';

let site: Awaited<ReturnType<typeof servePages>>;
let conn: Connection;
let out: string;
let uploads: string;
let outside: string;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  const tmp = await tempDir();
  cleanup = tmp.cleanup;
  out = join(tmp.dir, 'out');
  uploads = join(tmp.dir, 'uploads');
  outside = join(tmp.dir, 'outside');
  await mkdir(uploads);
  await mkdir(outside);
  await writeFile(join(uploads, 'hello.txt'), 'hello upload');
  await writeFile(join(outside, 'secret.txt'), 'secret');
  site = await servePages({
    '/': `<title>Files</title><h1>Files</h1>
      <input type="file" id="f" onchange="document.getElementById('r').textContent = 'got ' + this.files[0].name + ' ' + this.files[0].size">
      <p id="r">none</p>`,
  });
  conn = await startServer(['--allowed-origins', site.origin, '--output-dir', out, '--upload-dir', uploads]);
  await callOk(conn, 'browser_navigate', { url: `${site.base}/`, snapshot: 'none' });
});

afterAll(async () => {
  await conn?.close();
  await site?.close();
  await cleanup?.();
});

describe('BR-03 output files stay inside', () => {
  it.each([
    '../../tmp/x.png',
    '/etc/cron.d/x',
    'C:\\Windows\\x.png',
    'c:/x.png',
    '\\\\server\\share\\x.png',
    'a/../../x.png',
  ])('BR-03 refuses screenshot filename %s', async (filename) => {
    const result = await callChecked(conn, 'browser_take_screenshot', { filename });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toMatch(/filename/);
  });

  it('BR-03 refuses a PDF outside and a symlink pointing out', async () => {
    await mkdir(out, { recursive: true });
    await symlink(outside, join(out, 'link'));
    for (const filename of ['../escape.pdf', 'link/x.pdf']) {
      const result = await callChecked(conn, 'browser_pdf_save', { filename });
      expect(result.isError, filename).toBe(true);
    }
    expect(existsSync(join(outside, 'x.pdf'))).toBe(false);
  });

  it('BR-03 saves sub/dir/shot.png inside the output directory and returns the real path', async () => {
    const result = await callChecked(conn, 'browser_take_screenshot', { filename: 'sub/dir/shot.png' });
    expect(result.isError).toBeFalsy();
    const saved = join(out, 'sub/dir/shot.png');
    expect(resultText(result)).toContain(`Saved to ${saved}`);
    expect(readFileSync(saved).subarray(1, 4).toString()).toBe('PNG');
    expect(result.content.some((c) => c.type === 'image')).toBe(true);
    const pdf = await callOk(conn, 'browser_pdf_save', { filename: 'docs/page.pdf' });
    expect(pdf).toContain(join(out, 'docs/page.pdf'));
    expect(readFileSync(join(out, 'docs/page.pdf')).subarray(0, 4).toString()).toBe('%PDF');
    const snap = await callOk(conn, 'browser_snapshot', { filename: 'snaps/page.txt' });
    expect(snap).toContain(join(out, 'snaps/page.txt'));
  });

  it('BR-03 screenshots are resources, linked from the result', async () => {
    const result = await callChecked(conn, 'browser_take_screenshot', {});
    const text = resultText(result);
    const uri = /resource (screenshot:\/\/\S+)/.exec(text)?.[1] ?? '';
    const link = result.content.find((c) => c.type === 'resource_link');
    expect(link).toMatchObject({
      type: 'resource_link',
      uri,
      name: uri.slice('screenshot://'.length),
      title: 'Screenshot of the viewport',
      mimeType: 'image/png',
    });
    const { resources } = await conn.client.listResources();
    expect(resources.map((r) => r.uri)).toContain(uri);
    const read = await conn.client.readResource({ uri });
    expect(read.contents[0]).toMatchObject({ mimeType: 'image/png' });
  });

  it('BR-03 uploads only from the upload directory', async () => {
    await callOk(conn, 'browser_click', { target: '#f', snapshot: 'none' });
    const refused = await callChecked(conn, 'browser_file_upload', { paths: [join(outside, 'secret.txt')] });
    expect(refused.isError).toBe(true);
    expect(resultText(refused)).toMatch(/paths:.*outside/);
    const done = await callOk(conn, 'browser_file_upload', { paths: ['hello.txt'] });
    expect(done).toMatch(/got hello\.txt 12/);
  });
});

describe('without --output-dir', () => {
  it('BR-03 refuses every file output and still returns screenshots inline', async () => {
    const plain = await startServer(['--allowed-origins', site.origin]);
    try {
      const saved = await callChecked(plain, 'browser_take_screenshot', { filename: 'x.png' });
      expect(saved.isError).toBe(true);
      expect(resultText(saved)).toMatch(/no --output-dir/);
      const inline = await callChecked(plain, 'browser_take_screenshot', {});
      expect(inline.isError).toBeFalsy();
      expect(inline.content.some((c) => c.type === 'image')).toBe(true);
      expect((await callChecked(plain, 'browser_file_upload', { paths: ['/etc/passwd'] })).isError).toBe(
        true,
      );
    } finally {
      await plain.close();
    }
  });
});
