/**
 * Read tools through the built server over stdio, on real temp directories: FS-09 (huge sparse file),
 * FS-11 (binary), FS-14 (NUL and Windows paths), line and byte ranges, read_multiple_files, result budgets,
 * get_file_info, list_allowed_directories.
 */
import { mkdir, open, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import type { Connection } from '@refmcp/test-harness';
import { bytesReadBy, callChecked, peakRssBytes, resultText, tempDir } from '@refmcp/test-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from './support.js';

/** A real 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/** A real ZIP archive holding hello.txt, stored (no compression). */
function zipWithOneFile(): Buffer {
  const name = Buffer.from('hello.txt');
  const data = Buffer.from('hello zip\n');
  const crc = crc32(data);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(10, 4);
  local.writeUInt32LE(crc, 14);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(data.length, 22);
  local.writeUInt16LE(name.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(10, 6);
  central.writeUInt32LE(crc, 16);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(data.length, 24);
  central.writeUInt16LE(name.length, 28);
  const centralOffset = local.length + name.length + data.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + name.length, 12);
  end.writeUInt32LE(centralOffset, 16);
  return Buffer.concat([local, name, data, central, name, end]);
}

/** A sparse file of `size` bytes: optional text at the start, a hole, then `tailText` at the very end. */
async function sparseFile(path: string, size: number, tailText: string, headText = ''): Promise<void> {
  const fh = await open(path, 'w');
  try {
    await fh.truncate(size);
    if (headText) await fh.write(headText, 0);
    await fh.write(tailText, size - Buffer.byteLength(tailText));
  } finally {
    await fh.close();
  }
}

const GB3 = 3 * 1024 ** 3;
const lines = (from: number, to: number, prefix = 'line') =>
  Array.from({ length: to - from + 1 }, (_, i) => `${prefix} ${from + i}\n`).join('');

let conn: Connection;
let dir: string;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeFile(join(dir, 'hundred.txt'), lines(1, 100));
  await writeFile(join(dir, 'pixel.png'), PNG);
  await writeFile(join(dir, 'pixel.dat'), PNG); // type from content, not name
  await writeFile(join(dir, 'archive.zip'), zipWithOneFile());
  await writeFile(join(dir, 'notes.txt'), 'plain text\n');
  await writeFile(join(dir, 'utf8.txt'), 'aé€b\n');
  // Latin-1 "café", an overlong "/", and a real U+FFFD (valid UTF-8: must not be flagged).
  await writeFile(join(dir, 'latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a, 0xc0, 0xaf, 0x0a]));
  await writeFile(join(dir, 'fffd.txt'), 'real \uFFFD here\n');
  await mkdir(join(dir, 'sub'));
  await symlink(join(dir, 'notes.txt'), join(dir, 'link.txt'));
  conn = await startServer([dir]);
});

afterAll(async () => {
  await conn?.close();
  await cleanup?.();
});

/** `call`'s result and how many bytes the server read meanwhile (files and its stdin alike). */
async function withBytesRead<T>(call: () => Promise<T>): Promise<[T, number]> {
  const before = bytesReadBy(conn.pid);
  const result = await call();
  return [result, bytesReadBy(conn.pid) - before];
}

/** Far below the 3 GB files: reading one of them whole, or a good part, cannot stay under it. */
const READ_CEILING = 8 * 1024 * 1024;

describe('FS-09 huge files', () => {
  let sparse: string;
  let sparseWithHead: string;
  beforeAll(async () => {
    sparse = join(dir, 'huge.log');
    await sparseFile(sparse, GB3, lines(1, 30, 'tail'));
    sparseWithHead = join(dir, 'huge-with-head.log');
    await sparseFile(sparseWithHead, GB3, lines(1, 30, 'tail'), lines(1, 1000, 'head'));
  });

  it('tail: 20 returns the last 20 lines reading only the end of the file', async () => {
    const [result, read] = await withBytesRead(() =>
      callChecked(conn, 'read_text_file', { path: sparse, tail: 20 }),
    );
    expect(read).toBeLessThan(READ_CEILING);
    expect(result.isError).toBeFalsy();
    expect(resultText(result)).toBe(lines(11, 30, 'tail'));
    expect(result.structuredContent).toMatchObject({ fileBytes: GB3, endByte: GB3, truncated: false });
  });

  it('tail past the real lines shows them and says a NUL (sparse) region precedes them', async () => {
    const result = await callChecked(conn, 'read_text_file', { path: sparse, tail: 50 });
    expect(result.isError).toBeFalsy();
    const text = resultText(result);
    expect(text).toMatch(/^\[binary data before: .*NUL byte.*sparse.*byteOffset/);
    expect(text.endsWith(lines(1, 30, 'tail'))).toBe(true);
  });

  it('head: 5 returns the first 5 lines reading only the start of the file', async () => {
    const [result, read] = await withBytesRead(() =>
      callChecked(conn, 'read_text_file', { path: sparseWithHead, head: 5 }),
    );
    expect(read).toBeLessThan(READ_CEILING);
    expect(result.isError).toBeFalsy();
    expect(resultText(result)).toBe(lines(1, 5, 'head'));
    expect(result.structuredContent).toMatchObject({ startLine: 1, endLine: 5, nextOffset: 6 });
  });

  it('head: 5 on a file that starts with a NUL hole is an isError pointing to tail, read from its start only', async () => {
    const [result, read] = await withBytesRead(() =>
      callChecked(conn, 'read_text_file', { path: sparse, head: 5 }),
    );
    expect(read).toBeLessThan(READ_CEILING);
    expect(result.isError).toBe(true);
    expect(resultText(result)).toMatch(/NUL byte at byte 0.*read_media_file.*tail/s);
  });

  it('head and tail together is isError', async () => {
    const result = await callChecked(conn, 'read_text_file', { path: sparse, head: 5, tail: 5 });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toMatch(/head and tail cannot be used together/);
  });

  it('a whole read is isError naming the size and suggesting head/tail/offset', async () => {
    const result = await callChecked(conn, 'read_text_file', { path: sparseWithHead });
    expect(result.isError).toBe(true);
    const text = resultText(result);
    expect(text).toContain(`${GB3} bytes`);
    expect(text).toMatch(/head.*tail.*offset/s);
  });

  it('offset deep into the file and a byte range near its end stay bounded', async () => {
    const result = await callChecked(conn, 'read_text_file', { path: sparseWithHead, offset: 998, limit: 3 });
    expect(resultText(result)).toBe('head 998\nhead 999\nhead 1000\n');
    const tailStart = GB3 - Buffer.byteLength(lines(1, 30, 'tail'));
    const bytes = await callChecked(conn, 'read_text_file', {
      path: sparse,
      byteOffset: tailStart,
      byteLength: 14,
    });
    expect(resultText(bytes)).toBe('tail 1\ntail 2\n');
  });

  it('the server stayed alive with bounded memory (peak RSS under 160 MB)', async () => {
    const after = await callChecked(conn, 'read_text_file', { path: join(dir, 'notes.txt') });
    expect(resultText(after)).toBe('plain text\n');
    const peak = await peakRssBytes(conn.pid);
    if (peak !== undefined) expect(peak).toBeLessThan(160 * 1024 * 1024);
  });
});

describe('line and byte ranges', () => {
  it('offset/limit returns a 1-based line range with the next offset', async () => {
    const result = await callChecked(conn, 'read_text_file', {
      path: join(dir, 'hundred.txt'),
      offset: 10,
      limit: 3,
    });
    expect(resultText(result)).toBe('line 10\nline 11\nline 12\n');
    expect(result.structuredContent).toMatchObject({ startLine: 10, endLine: 12, nextOffset: 13 });
  });

  it('offset alone reads to the end; an offset past the end says how many lines there are', async () => {
    const end = await callChecked(conn, 'read_text_file', { path: join(dir, 'hundred.txt'), offset: 99 });
    expect(resultText(end)).toBe('line 99\nline 100\n');
    const past = await callChecked(conn, 'read_text_file', { path: join(dir, 'hundred.txt'), offset: 101 });
    expect(past.isError).toBe(true);
    expect(resultText(past)).toMatch(/offset 101 is past the end.*100 lines/);
  });

  it('byteOffset/byteLength return a byte range on character boundaries', async () => {
    const result = await callChecked(conn, 'read_text_file', {
      path: join(dir, 'utf8.txt'),
      byteOffset: 1,
      byteLength: 5,
    });
    expect(resultText(result)).toBe('é€');
    expect(result.structuredContent).toMatchObject({ startByte: 1, endByte: 6, nextByteOffset: 6 });
  });

  it('invalid UTF-8 is shown as U+FFFD and said so, in the text and as a flag (breaker finding 6)', async () => {
    for (const args of [{}, { head: 1 }, { tail: 2 }, { byteOffset: 0 }, { offset: 1, limit: 2 }]) {
      const result = await callChecked(conn, 'read_text_file', { path: join(dir, 'latin1.txt'), ...args });
      const text = resultText(result);
      expect(text).toContain('caf\uFFFD');
      expect(text).toMatch(/\n\[note: this text is not valid UTF-8; invalid bytes are shown as U\+FFFD/);
      expect(result.structuredContent).toMatchObject({ invalidUtf8: true });
      expect((result.structuredContent as { content: string }).content).not.toContain('[note');
    }
    const valid = await callChecked(conn, 'read_text_file', { path: join(dir, 'fffd.txt') });
    expect(resultText(valid)).toBe('real \uFFFD here\n');
    expect(valid.structuredContent).not.toHaveProperty('invalidUtf8');
    const multi = await callChecked(conn, 'read_multiple_files', { paths: [join(dir, 'latin1.txt')] });
    expect(resultText(multi)).toContain('not valid UTF-8');
    expect((multi.structuredContent as { files: { invalidUtf8?: boolean }[] }).files[0]?.invalidUtf8).toBe(
      true,
    );
  });

  it('mixing line and byte selections is isError naming both', async () => {
    const result = await callChecked(conn, 'read_text_file', {
      path: join(dir, 'hundred.txt'),
      offset: 2,
      byteOffset: 3,
    });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toMatch(/offset and byteOffset cannot be used together/);
  });

  it('read_file is the deprecated alias with the same behaviour', async () => {
    const result = await callChecked(conn, 'read_file', { path: join(dir, 'hundred.txt'), tail: 1 });
    expect(resultText(result)).toBe('line 100\n');
    const tools = await conn.client.listTools();
    expect(tools.tools.find((t) => t.name === 'read_file')?.description).toMatch(
      /^DEPRECATED: use read_text_file/,
    );
  });
});

describe('both protocol eras', () => {
  it('a 2026-07-28 (modern) client gets the same read results as a 2025-11-25 one', async () => {
    const modern = await startServer([dir], 'modern');
    try {
      expect(modern.era).toBe('modern');
      for (const args of [{ path: 'hundred.txt', offset: 5, limit: 2 }, { path: join(dir, 'pixel.png') }]) {
        const [a, b] = await Promise.all([
          callChecked(conn, 'read_text_file', args),
          callChecked(modern, 'read_text_file', args),
        ]);
        expect({ content: b.content, structuredContent: b.structuredContent, isError: b.isError }).toEqual({
          content: a.content,
          structuredContent: a.structuredContent,
          isError: a.isError,
        });
      }
    } finally {
      await modern.close();
    }
  });
});

describe('FS-11 binary files', () => {
  it('read_text_file on a PNG is isError suggesting read_media_file', async () => {
    const result = await callChecked(conn, 'read_text_file', { path: join(dir, 'pixel.png') });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toMatch(/binary.*read_media_file/s);
    const head = await callChecked(conn, 'read_text_file', { path: join(dir, 'pixel.png'), head: 1 });
    expect(head.isError).toBe(true);
  });

  it('read_media_file on a PNG returns an image block with image/png (by content, whatever the name)', async () => {
    for (const name of ['pixel.png', 'pixel.dat']) {
      const result = await callChecked(conn, 'read_media_file', { path: join(dir, name) });
      expect(result.isError).toBeFalsy();
      const image = result.content.find((c) => c.type === 'image');
      expect(image).toMatchObject({ type: 'image', mimeType: 'image/png' });
      expect(Buffer.from((image as { data: string }).data, 'base64').equals(PNG)).toBe(true);
    }
  });

  it('read_media_file on a zip returns an embedded resource blob with application/zip and says so', async () => {
    const result = await callChecked(conn, 'read_media_file', { path: join(dir, 'archive.zip') });
    expect(result.isError).toBeFalsy();
    const block = result.content.find((c) => c.type === 'resource') as {
      resource: { mimeType: string; blob: string; uri: string };
    };
    expect(block.resource.mimeType).toBe('application/zip');
    expect(Buffer.from(block.resource.blob, 'base64').equals(zipWithOneFile())).toBe(true);
    expect(block.resource.uri).toMatch(/^file:\/\/.*archive\.zip$/);
    expect(resultText(result)).toMatch(/application\/zip.*not an image or audio/);
  });

  it('read_media_file on a text file points to read_text_file; over the size limit it names the size', async () => {
    const text = await callChecked(conn, 'read_media_file', { path: join(dir, 'notes.txt') });
    expect(text.isError).toBe(true);
    expect(resultText(text)).toMatch(/read_text_file/);
    const hugePng = join(dir, 'huge.png');
    await sparseFile(hugePng, 11 * 1024 * 1024, 'x');
    await writeFile(hugePng, PNG, { flag: 'r+' });
    const big = await callChecked(conn, 'read_media_file', { path: hugePng });
    expect(big.isError).toBe(true);
    expect(resultText(big)).toMatch(/11534336 bytes.*over the .* limit/);
  });
});

describe('FS-14 NUL and Windows-style paths', () => {
  it('a path containing NUL is isError', async () => {
    for (const tool of ['read_text_file', 'read_media_file', 'get_file_info']) {
      const result = await callChecked(conn, tool, { path: `${dir}/notes.txt\u0000.png` });
      expect(result.isError, tool).toBe(true);
      expect(resultText(result)).toMatch(/NUL/);
    }
  });

  it('C:\\x is isError, not joined to a root', async () => {
    const result = await callChecked(conn, 'read_text_file', { path: 'C:\\x' });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toMatch(/Windows-style path/);
    const multi = await callChecked(conn, 'read_multiple_files', { paths: ['C:\\x'] });
    expect(resultText(multi)).toMatch(/C:\\x: Error - .*Windows-style/);
  });
});

describe('read_multiple_files', () => {
  it('reports a missing file inline and still returns the others', async () => {
    const paths = [join(dir, 'notes.txt'), join(dir, 'missing.txt'), join(dir, 'pixel.png'), 'hundred.txt'];
    const result = await callChecked(conn, 'read_multiple_files', { paths });
    expect(result.isError).toBeFalsy();
    const text = resultText(result);
    expect(text).toContain(`${join(dir, 'notes.txt')}:\nplain text\n`);
    expect(text).toMatch(new RegExp(`${join(dir, 'missing.txt')}: Error - .*does not exist`));
    expect(text).toMatch(/pixel\.png: Error - .*binary/);
    expect(text).toContain('hundred.txt:\nline 1\n');
    const files = (result.structuredContent as { files: { status: string }[] }).files;
    expect(files.map((f) => f.status)).toEqual(['ok', 'error', 'error', 'ok']);
  });
});

describe('result budget', () => {
  let small: Connection;
  beforeAll(async () => {
    await writeFile(join(dir, 'thousand.txt'), lines(1, 1000));
    await writeFile(join(dir, 'oneline.txt'), 'x'.repeat(10_000));
    small = await startServer([dir, '--max-result-bytes', '2000', '--max-file-bytes', '100000']);
  });
  afterAll(async () => {
    await small?.close();
  });

  it('a cut read ends with a marker naming the offset to continue from, and continuing works', async () => {
    const result = await callChecked(small, 'read_text_file', { path: join(dir, 'thousand.txt') });
    const text = resultText(result);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(2000);
    const marker = /\[truncated: showing lines 1–(\d+) .*continue with offset=(\d+)\]$/.exec(text);
    expect(marker).not.toBeNull();
    const next = Number(marker?.[2]);
    expect(next).toBe(Number(marker?.[1]) + 1);
    expect(text).toContain(`line ${next - 1}\n[truncated`);
    const more = await callChecked(small, 'read_text_file', {
      path: join(dir, 'thousand.txt'),
      offset: next,
      limit: 1,
    });
    expect(resultText(more)).toBe(`line ${next}\n`);
  });

  it('a line longer than the budget is cut with a byteOffset to continue from', async () => {
    const result = await callChecked(small, 'read_text_file', { path: join(dir, 'oneline.txt') });
    const text = resultText(result);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(2000);
    expect(text).toMatch(/\[truncated: line 1 is longer .*continue with byteOffset=(\d+)\]$/);
  });

  it('a whole read over --max-file-bytes is refused with the size', async () => {
    await writeFile(join(dir, 'big.txt'), lines(1, 20_000));
    const result = await callChecked(small, 'read_text_file', { path: join(dir, 'big.txt') });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toMatch(/is \d+ bytes .*over the 100000 bytes .* limit/);
  });

  it('read_multiple_files shares the budget and lists the files it could not fit', async () => {
    const paths = [join(dir, 'thousand.txt'), join(dir, 'notes.txt'), join(dir, 'hundred.txt')];
    const result = await callChecked(small, 'read_multiple_files', { paths });
    const text = resultText(result);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(2000);
    expect(text).toMatch(/continue with offset=\d+/);
    expect(text).toMatch(/\[truncated: 2 file\(s\) not read.*notes\.txt.*hundred\.txt/);
    const files = (result.structuredContent as { files: { status: string }[] }).files;
    expect(files.map((f) => f.status)).toEqual(['ok', 'skipped', 'skipped']);
  });
});

describe('get_file_info and list_allowed_directories', () => {
  it('get_file_info returns structured metadata, symlink included', async () => {
    const result = await callChecked(conn, 'get_file_info', { path: join(dir, 'link.txt') });
    expect(result.structuredContent).toMatchObject({
      size: 11,
      isFile: true,
      isDirectory: false,
      isSymbolicLink: true,
      realPath: join(dir, 'notes.txt'),
    });
    expect((result.structuredContent as { permissions: string }).permissions).toMatch(/^[0-7]{3,4}$/);
    expect(resultText(result)).toMatch(/^path: .*\nrealPath: /);
    const sub = await callChecked(conn, 'get_file_info', { path: join(dir, 'sub') });
    expect(sub.structuredContent).toMatchObject({ isDirectory: true, isSymbolicLink: false });
  });

  it('list_allowed_directories shows the configured form and the resolved one where it differs', async () => {
    const alias = `${dir}-alias`;
    await symlink(dir, alias);
    const aliased = await startServer([alias]);
    try {
      const result = await callChecked(aliased, 'list_allowed_directories', {});
      expect(result.structuredContent).toEqual({ directories: [{ path: alias, resolvedPath: dir }] });
      expect(resultText(result)).toBe(`Allowed directories:\n${alias} (resolves to ${dir})`);
      const plain = await callChecked(conn, 'list_allowed_directories', {});
      expect(plain.structuredContent).toEqual({ directories: [{ path: dir }] });
    } finally {
      await aliased.close();
      const { rm } = await import('node:fs/promises');
      await rm(alias, { force: true });
    }
  });
});
