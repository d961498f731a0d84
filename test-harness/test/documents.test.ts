/**
 * The shared documents module (@refmcp/shared/documents) on fixtures made here: every family, the
 * page/row/byte budgets and cursors, and hostile files (zip bomb, encrypted, truncated, corrupt,
 * huge image header, timeout) answered with a clear error while the process lives on.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  detectDocument,
  ExtractError,
  extractDocument,
  readDocument,
  setDocumentWorker,
} from '@refmcp/shared/documents';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  corrupted,
  makeDocx,
  makeEncryptedPdf,
  makeOdp,
  makeOdt,
  makePdf,
  makePptx,
  makeWorkbook,
  makeZipBomb,
  pngHeader,
  TINY_PNG,
  truncated,
} from '../src/documents.js';

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'doc-worker-'));
  const outfile = join(dir, 'document-worker.mjs');
  await build({
    entryPoints: [new URL('../../shared/src/documents/document-worker.ts', import.meta.url).pathname],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile,
    logLevel: 'error',
    banner: {
      js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
    },
  });
  setDocumentWorker(outfile);
}, 120_000);

const failure = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ExtractError);
  return error as ExtractError;
};

describe('detectDocument', () => {
  it('goes by content first, then media type and name', async () => {
    expect(detectDocument(await makePdf(1), { name: 'x.bin' })).toBe('pdf');
    expect(detectDocument(await makeDocx())).toBe('docx');
    expect(detectDocument(makeWorkbook())).toBe('xlsx');
    expect(detectDocument(makeWorkbook(2, 'ods'))).toBe('ods');
    expect(detectDocument(makePptx([{ text: 'a' }]))).toBe('pptx');
    expect(detectDocument(makeOdt())).toBe('odt');
    expect(detectDocument(makeOdp([{ text: 'a' }]))).toBe('odp');
    expect(detectDocument(TINY_PNG)).toBe('image');
    expect(detectDocument(Buffer.from('a,b\n1,2\n'), { mediaType: 'text/csv; charset=utf-8' })).toBe('csv');
    expect(detectDocument(Buffer.from('a,b\n1,2\n'), { name: 'plain.txt' })).toBeUndefined();
    expect(detectDocument(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><text>hi</text></svg>'))).toBe(
      'svg',
    );
  });
});

describe('PDF', () => {
  it('returns text per page with numbers, a range, and says which pages are scanned', async () => {
    const pdf = await makePdf(4, { scanned: [3] });
    const all = await extractDocument(pdf, 'pdf');
    expect(all.totalParts).toBe(4);
    expect(all.parts.map((p) => p.number)).toEqual([1, 2, 3, 4]);
    expect(all.parts[1]?.text).toContain('Page 2 line 1');
    expect(all.parts[2]?.text).toBe('');
    expect(all.parts[2]?.empty).toMatch(/no text layer.*scanned/);
    const range = await extractDocument(pdf, 'pdf', { start: { part: 2, offset: 0 }, lastPart: 3 });
    expect(range.parts.map((p) => p.number)).toEqual([2, 3]);
    expect(range.next).toBeUndefined();
  });

  it('stops at the page budget and the byte budget with where to go on', async () => {
    const pdf = await makePdf(30, { linesPerPage: 40 });
    const byPages = await extractDocument(pdf, 'pdf', { limits: { maxParts: 5 } });
    expect(byPages.parts).toHaveLength(5);
    expect(byPages.next).toEqual({ part: 6, offset: 0 });
    const byBytes = await extractDocument(pdf, 'pdf', { limits: { maxBytes: 2000 } });
    const shown = byBytes.parts.map((p) => p.text).join('');
    expect(Buffer.byteLength(shown)).toBeLessThanOrEqual(2000);
    // Page 1 (about 1.4 KB) fits whole; page 2 is cut at a line end and continues by offset.
    expect(byBytes.parts.map((p) => p.number)).toEqual([1, 2]);
    expect(byBytes.next).toMatchObject({ part: 2 });
    expect(byBytes.next?.offset).toBeGreaterThan(0);
    const rest = await extractDocument(pdf, 'pdf', { start: byBytes.next, limits: { maxBytes: 2000 } });
    expect(rest.parts[0]).toMatchObject({ number: 2, offset: byBytes.next?.offset });
    const whole = await extractDocument(pdf, 'pdf', { start: { part: 2, offset: 0 }, lastPart: 2 });
    expect((byBytes.parts[1]?.text ?? '') + (rest.parts[0]?.text ?? '')).toBe(whole.parts[0]?.text);
  });

  it('refuses a password-protected PDF as such', async () => {
    const error = await failure(extractDocument(await makeEncryptedPdf(), 'pdf'));
    expect(error.failure).toBe('encrypted');
    expect(error.message).toMatch(/password/);
  });

  it('refuses truncated and corrupt PDFs with a clear error', async () => {
    const pdf = await makePdf(3);
    for (const bad of [truncated(pdf, 0.1), Buffer.from('%PDF-1.7\ngarbage')]) {
      const result = await extractDocument(bad, 'pdf').catch((e: unknown) => e);
      // pdf.js recovers what it can; what it cannot read is a corrupt-file error, never a crash.
      if (result instanceof Error) expect((result as ExtractError).failure).toBe('corrupt');
      else expect((result as { parts: unknown[] }).parts.length).toBeGreaterThanOrEqual(0);
    }
  });
});

describe('parsed PDFs kept for cursor continuations (issue 30)', () => {
  // Page counts no other test uses: pdf-lib's output differs by them, so each is a document the
  // worker has not parsed before.
  it('a continuation on the same bytes reuses the parse; other bytes are parsed afresh', async () => {
    const a = await makePdf(11, { linesPerPage: 40 });
    const first = await extractDocument(a, 'pdf', { limits: { maxParts: 4 } });
    expect(first.reused).toBeUndefined();
    expect(first.next).toEqual({ part: 5, offset: 0 });
    const next = await extractDocument(a, 'pdf', { start: first.next, limits: { maxParts: 4 } });
    expect(next.reused).toBe(true);
    expect(next.parts.map((p) => p.number)).toEqual([5, 6, 7, 8]);
    expect(next.parts[0]?.text).toContain('Page 5 line 1');
    const b = await makePdf(12, { linesPerPage: 40 });
    const other = await extractDocument(b, 'pdf', { start: first.next, limits: { maxParts: 4 } });
    expect(other.reused).toBeUndefined();
    expect(other.totalParts).toBe(12);
    expect((await extractDocument(a, 'pdf', { lastPart: 1 })).totalParts).toBe(11);
  });

  it('keeps at most 4 documents: the least recently used one is parsed again', async () => {
    const docs = await Promise.all([13, 14, 15, 16, 17].map((n) => makePdf(n)));
    for (const doc of docs)
      expect((await extractDocument(doc, 'pdf', { lastPart: 1 })).reused).toBeUndefined();
    expect((await extractDocument(docs[4] as Buffer, 'pdf', { lastPart: 1 })).reused).toBe(true);
    const evicted = await extractDocument(docs[0] as Buffer, 'pdf', { lastPart: 1 });
    expect(evicted.reused).toBeUndefined();
    expect(evicted.totalParts).toBe(13);
  });

  it('reads at the same time each get their own document, and a stopped read leaves the next one whole', async () => {
    const [c, d] = await Promise.all([makePdf(18), makePdf(19)]);
    const both = await Promise.all([
      extractDocument(c as Buffer, 'pdf', { lastPart: 2 }),
      extractDocument(d as Buffer, 'pdf', { lastPart: 2 }),
    ]);
    expect(both.map((r) => r.totalParts)).toEqual([18, 19]);
    const slow = await failure(
      extractDocument(await makePdf(400, { linesPerPage: 40 }), 'pdf', {
        timeoutMs: 50,
        limits: { maxParts: 400, maxBytes: 10 ** 8 },
      }),
    );
    expect(slow.failure).toBe('timeout');
    const after = await extractDocument(c as Buffer, 'pdf', { start: { part: 3, offset: 0 }, lastPart: 3 });
    expect(after.parts[0]?.text).toContain('Page 3 line 1');
  });

  it('a cursor issued for one document is refused with another, cached or not', async () => {
    const a = await makePdf(20, { linesPerPage: 40 });
    const read = (id: string, cursor?: string) =>
      readDocument({
        bytes: a,
        kind: 'pdf',
        source: id,
        id,
        ...(cursor ? { cursor } : {}),
        options: { limits: { maxParts: 2 } },
      });
    const first = await read('a.pdf');
    const text = first.content.map((c) => ('text' in c ? c.text : '')).join('\n');
    const cursor = /cursor "([^"]+)"/.exec(text)?.[1];
    expect(cursor).toBeDefined();
    await expect(read('b.pdf', cursor)).rejects.toThrow(/issued for another document/);
    const again = await read('a.pdf', cursor);
    expect(again.content.map((c) => ('text' in c ? c.text : '')).join('\n')).toContain('Page 3 line 1');
  });
});

describe('Office', () => {
  it('.docx becomes Markdown with headings, lists, links, tables and named images', async () => {
    const doc = await extractDocument(await makeDocx(), 'docx');
    const text = doc.parts[0]?.text ?? '';
    expect(text).toContain('# Quarterly Report');
    expect(text).toMatch(/^- First point$/m);
    expect(text).toContain('[the full report](https://example.com/report)');
    expect(text).toContain('| Region | Sales |');
    expect(text).toContain('| North | 1200 |');
    expect(text).toContain('[image: ');
    expect(text).not.toContain('data:image');
  });

  it('.odt becomes Markdown too', async () => {
    const text = (await extractDocument(makeOdt(), 'odt')).parts[0]?.text ?? '';
    expect(text).toContain('## Minutes');
    expect(text).toContain('[the team](https://example.org/team)');
    expect(text).toContain('- Budget approved');
    expect(text).toContain('| Ana | Draft |');
  });

  it('.xlsx and .ods give each sheet with its name, used range and cached formula results', async () => {
    for (const kind of ['xlsx', 'ods'] as const) {
      const doc = await extractDocument(makeWorkbook(5, kind), kind);
      expect(doc.parts.map((p) => p.name)).toEqual(['Summary', 'Data']);
      expect(doc.parts[0]?.range).toBe('A1:B4');
      expect(doc.parts[0]?.text).toMatch(/\| 4 \| Total \| 7 \|/);
      expect(doc.parts[1]?.rows).toBe(6);
    }
  });

  it('bounds rows and continues a sheet from where it stopped', async () => {
    const book = makeWorkbook(1000);
    const first = await extractDocument(book, 'xlsx', {
      start: { part: 2, offset: 0 },
      limits: { maxRows: 100 },
    });
    expect(first.parts).toHaveLength(1);
    expect(first.parts[0]?.text.split('\n')).toHaveLength(102);
    expect(first.next).toEqual({ part: 2, offset: 100 });
    const second = await extractDocument(book, 'xlsx', { start: first.next, limits: { maxRows: 100 } });
    expect(second.parts[0]?.text).toMatch(/^\| 101 \| 100 \| row 100 \|$/m);
  });

  it('.csv reads as one sheet', async () => {
    const doc = await extractDocument(Buffer.from('a,b\n1,"x, y"\n'), 'csv');
    expect(doc.parts[0]?.text).toContain('| 2 | 1 | x, y |');
  });

  it('.pptx and .odp give text per slide with notes', async () => {
    const slides = [{ text: 'Welcome', notes: 'Say hello' }, { text: 'Plan' }];
    for (const [kind, bytes] of [
      ['pptx', makePptx(slides)],
      ['odp', makeOdp(slides)],
    ] as const) {
      const doc = await extractDocument(bytes, kind);
      expect(doc.totalParts).toBe(2);
      expect(doc.parts[0]).toMatchObject({ number: 1, text: 'Welcome', notes: 'Say hello' });
      expect(doc.parts[1]).toMatchObject({ number: 2, text: 'Plan' });
      expect(doc.parts[1]?.notes).toBeUndefined();
    }
  });
});

describe('hostile files', () => {
  it('a zip bomb is refused by the bytes it actually inflates to', async () => {
    const bomb = makeZipBomb(5, 256);
    expect(bomb.length).toBeLessThan(2 * 2 ** 20);
    const error = await failure(extractDocument(bomb, 'docx'));
    expect(error.failure).toBe('too-large');
    expect(error.message).toMatch(/zip bomb/);
  });

  it('truncated and corrupt Office files give a clear error', async () => {
    const docx = await makeDocx();
    for (const bad of [truncated(docx), corrupted(docx)]) {
      const error = await failure(extractDocument(bad, 'docx'));
      expect(error.failure).toBe('corrupt');
    }
    const error = await failure(extractDocument(truncated(makePptx([{ text: 'x' }])), 'pptx'));
    expect(error.failure).toBe('corrupt');
  });

  it('an image declaring a huge canvas is refused before decoding', async () => {
    const error = await failure(extractDocument(pngHeader(100_000, 100_000), 'image'));
    expect(error.failure).toBe('too-large');
    expect(error.message).toMatch(/100000×100000/);
  });

  it('input over the size ceiling is refused before a worker starts', async () => {
    const error = await failure(extractDocument(Buffer.alloc(2048), 'pdf', { maxInputBytes: 1024 }));
    expect(error.failure).toBe('too-large');
  });

  it('work past the time ceiling is stopped', async () => {
    const error = await failure(
      extractDocument(await makePdf(400, { linesPerPage: 40 }), 'pdf', {
        timeoutMs: 50,
        limits: { maxParts: 400, maxBytes: 10 ** 8 },
      }),
    );
    expect(error.failure).toBe('timeout');
  });

  it('work past the heap ceiling is stopped', async () => {
    const error = await failure(
      extractDocument(makeWorkbook(20000), 'xlsx', {
        maxHeapMb: 8,
        limits: { maxRows: 20000, maxBytes: 10 ** 8 },
      }),
    );
    expect(['memory', 'corrupt']).toContain(error.failure);
  });
});

describe('images', () => {
  it('a small image is returned as is with its size', async () => {
    const doc = await extractDocument(TINY_PNG, 'image');
    expect(doc.image).toMatchObject({ mimeType: 'image/png', width: 1, height: 1, originalWidth: 1 });
  });

  it('a large image is scaled so no side exceeds the limit', async () => {
    const { Jimp } = await import('jimp');
    const png = await new Jimp({ width: 300, height: 120, color: 0x336699ff }).getBuffer('image/png');
    const doc = await extractDocument(png, 'image', { limits: { maxImageSide: 100 } });
    expect(doc.image).toMatchObject({ width: 100, height: 40, originalWidth: 300, originalHeight: 120 });
  });

  it('SVG is never rendered: its text is returned', async () => {
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script><title>Logo</title><text>ACME</text></svg>',
    );
    const doc = await extractDocument(svg, 'svg');
    expect(doc.image).toBeUndefined();
    expect(doc.parts[0]?.text).toBe('Logo\nACME');
  });
});
