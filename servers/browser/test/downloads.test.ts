/**
 * Issue 28 item 5: a click that starts a download and a navigation to an attachment say that a
 * download started (name, type, size) and what happened to it — never Playwright's raw "Download is
 * starting" — and with --save-downloads a download within --max-download-bytes is saved under
 * --output-dir/downloads and returned as a `download://` resource; a bigger one is cancelled.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Connection } from '@refmcp/test-harness';
import { callChecked, tempDir } from '@refmcp/test-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servePages, startServer } from './support.js';

const CSV = 'id,name\n1,alpha\n2,beta\n';
const BIG = 'x'.repeat(4096);

let site: Awaited<ReturnType<typeof servePages>>;
let out: string;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  const tmp = await tempDir();
  cleanup = tmp.cleanup;
  out = join(tmp.dir, 'out');
  const attachment =
    (name: string, type: string, body: string) => (_req: unknown, res: import('node:http').ServerResponse) =>
      res
        .writeHead(200, {
          'content-type': type,
          'content-disposition': `attachment; filename="${name}"`,
          'content-length': String(Buffer.byteLength(body)),
        })
        .end(body);
  site = await servePages({
    '/': `<title>Reports</title><a href="/report.csv">Export CSV</a> <a href="/big.bin">Big file</a>`,
    '/report.csv': attachment('report.csv', 'text/csv', CSV),
    '/big.bin': attachment('../../big.bin', 'application/octet-stream', BIG),
  });
});

afterAll(async () => {
  await site?.close();
  await cleanup?.();
});

/** The ref of the link named `name` in a snapshot text. */
const refOf = (text: string, name: string) =>
  new RegExp(`link "${name}" \\[ref=([a-z0-9]+)\\]`).exec(text)?.[1];

async function openIndex(conn: Connection): Promise<string> {
  const nav = await callChecked(conn, 'browser_navigate', { url: `${site.base}/`, snapshot: 'none' });
  expect(nav.isError).toBeFalsy();
  return (await callChecked(conn, 'browser_snapshot', {})).text;
}

describe('downloads without --save-downloads', () => {
  let conn: Connection;
  beforeAll(async () => {
    conn = await startServer(['--allowed-origins', site.origin]);
  });
  afterAll(() => conn?.close());

  it('a click on an attachment link says a download started, with name, type and size, and that it was not saved', async () => {
    const ref = refOf(await openIndex(conn), 'Export CSV');
    expect(ref).toBeDefined();
    const click = await callChecked(conn, 'browser_click', { target: ref, snapshot: 'none' });
    expect(click.isError).toBeFalsy();
    expect(click.text).toMatch(
      new RegExp(
        `Download started: report\\.csv \\(text/csv, ${CSV.length} bytes\\) from ${site.base}/report\\.csv — not saved`,
      ),
    );
    expect(click.text).toContain('--save-downloads');
  });

  it('navigating to an attachment is no raw "Download is starting" error', async () => {
    const nav = await callChecked(conn, 'browser_navigate', {
      url: `${site.base}/report.csv`,
      snapshot: 'none',
    });
    expect(nav.isError).toBeFalsy();
    expect(nav.text).not.toMatch(/Download is starting/);
    expect(nav.text).toMatch(/started a download; the page did not change/);
    expect(nav.text).toMatch(/Download started: report\.csv \(text\/csv/);
  });
});

describe('downloads with --save-downloads', () => {
  let conn: Connection;
  beforeAll(async () => {
    conn = await startServer([
      '--allowed-origins',
      site.origin,
      '--output-dir',
      out,
      '--save-downloads',
      '--max-download-bytes',
      '1024',
    ]);
  });
  afterAll(() => conn?.close());

  it('saves a download within the cap under --output-dir/downloads and links it as a resource', async () => {
    const ref = refOf(await openIndex(conn), 'Export CSV');
    const click = await callChecked(conn, 'browser_click', { target: ref, snapshot: 'none' });
    expect(click.isError).toBeFalsy();
    const saved = join(out, 'downloads', 'report.csv');
    expect(click.text).toContain(`saved as ${saved}`);
    expect(readFileSync(saved, 'utf8')).toBe(CSV);
    const link = click.content.find((c) => c.type === 'resource_link') as
      | { uri: string; mimeType?: string }
      | undefined;
    expect(link).toMatchObject({ uri: 'download://report.csv', mimeType: 'text/csv' });
    const read = await conn.client.readResource({ uri: 'download://report.csv' });
    const blob = (read.contents[0] as { blob?: string }).blob ?? '';
    expect(Buffer.from(blob, 'base64').toString('utf8')).toBe(CSV);
    // A second download of the same name does not overwrite the first.
    const again = await callChecked(conn, 'browser_navigate', {
      url: `${site.base}/report.csv`,
      snapshot: 'none',
    });
    expect(again.text).toContain(`saved as ${join(out, 'downloads', 'report-1.csv')}`);
    // download://{name} completes to this session's downloads (no browser call).
    const complete = (value: string) =>
      conn.client.complete({
        ref: { type: 'ref/resource', uri: 'download://{name}' },
        argument: { name: 'name', value },
      });
    expect((await complete('rep')).completion.values).toEqual(['report.csv', 'report-1.csv']);
    expect((await complete('x')).completion.values).toEqual([]);
  });

  it('cancels a download over --max-download-bytes, and keeps its name inside the directory', async () => {
    const snap = await openIndex(conn);
    const ref = refOf(snap, 'Big file');
    expect(ref, snap).toBeDefined();
    const click = await callChecked(conn, 'browser_click', { target: ref, snapshot: 'none' });
    expect(click.isError, click.text).toBeFalsy();
    // The suggested "../../big.bin" never names a path outside: only a plain file name is used.
    expect(click.text).toMatch(/Download started: [^/\s]*big\.bin \(application\/octet-stream, 4\.0 KiB\)/);
    expect(click.text).toMatch(
      /cancelled: 4\.0 KiB is over the download cap of 1\.0 KiB \(--max-download-bytes\)/,
    );
    expect(readdirSync(join(out, 'downloads'))).toEqual(['report-1.csv', 'report.csv']);
    expect(existsSync(join(out, '..', 'big.bin'))).toBe(false);
    expect(click.content.some((c) => c.type === 'resource_link')).toBe(false);
  });

  it('refuses --save-downloads without --output-dir at startup', async () => {
    await expect(startServer(['--save-downloads'])).rejects.toThrow(/--save-downloads needs --output-dir/);
  });
});
