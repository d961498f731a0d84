/**
 * read_document and document search through the built server over stdio, on fixtures made by
 * @refmcp/test-harness/documents: every family, page ranges and cursors, scanned and encrypted PDFs,
 * a zip bomb and corrupt files answered with isError while the server keeps serving.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Connection } from '@refmcp/test-harness';
import { callChecked, resultText, tempDir } from '@refmcp/test-harness';
import {
  corrupted,
  makeDocx,
  makeEncryptedPdf,
  makeOdt,
  makePdf,
  makePptx,
  makeWorkbook,
  makeZipBomb,
  TINY_PNG,
  truncated,
} from '@refmcp/test-harness/documents';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from './support.js';

let conn: Connection;
let dir: string;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeFile(join(dir, 'report.pdf'), await makePdf(60, { scanned: [2], linesPerPage: 30 }));
  await writeFile(join(dir, 'locked.pdf'), await makeEncryptedPdf());
  await writeFile(join(dir, 'spec.docx'), await makeDocx());
  await writeFile(join(dir, 'minutes.odt'), makeOdt());
  await writeFile(join(dir, 'book.xlsx'), makeWorkbook(800));
  await writeFile(
    join(dir, 'deck.pptx'),
    makePptx([{ text: 'Welcome', notes: 'Say hello' }, { text: 'Plan' }]),
  );
  await writeFile(join(dir, 'pixel.png'), TINY_PNG);
  await writeFile(join(dir, 'bomb.docx'), makeZipBomb(5, 256));
  await writeFile(join(dir, 'half.docx'), truncated(await makeDocx()));
  await writeFile(join(dir, 'mangled.pptx'), corrupted(makePptx([{ text: 'x' }])));
  await writeFile(join(dir, 'notes.txt'), 'plain text\n');
  // What search_file_contents walks: a few documents, so a loaded machine stays within the walk budget.
  await mkdir(join(dir, 'shared'));
  await writeFile(join(dir, 'shared', 'report.pdf'), await makePdf(10, { linesPerPage: 5 }));
  await writeFile(join(dir, 'shared', 'deck.pptx'), makePptx([{ text: 'Welcome', notes: 'Say hello' }]));
  await writeFile(join(dir, 'shared', 'spec.docx'), await makeDocx());
  await writeFile(join(dir, 'shared', 'half.docx'), truncated(await makeDocx()));
  conn = await startServer([dir, '--walk-timeout', '120000']);
});

afterAll(async () => {
  await conn?.close();
  await cleanup?.();
});

const read = (args: Record<string, unknown>) => callChecked(conn, 'read_document', args);

describe('read_document', () => {
  it('reads a PDF page by page, says which page is scanned, and labels the text untrusted', async () => {
    const result = await read({ path: join(dir, 'report.pdf'), pages: '1-3' });
    expect(result.isError).toBeFalsy();
    const text = resultText(result);
    expect(text).toContain('PDF, 60 pages; pages 1–3 shown.');
    expect(text).toContain('--- page 1 ---');
    expect(text).toContain('Page 1 line 1: the quick brown fox');
    expect(text).toMatch(/--- page 2 — no text layer: a scanned or image-only page/);
    expect(text).toContain('Page 3 line 30');
    expect(text).toContain('<untrusted-data source=');
    expect(text).not.toContain('[truncated');
  });

  it('stops at the result budget and continues with the cursor it gives', async () => {
    const first = resultText(await read({ path: join(dir, 'report.pdf') }));
    const cursor = first.match(/cursor "([^"]+)"/)?.[1];
    expect(first).toMatch(
      /\[truncated: stopped at (\d+ bytes of text|50 pages); call read_document again with cursor "/,
    );
    expect(cursor).toBeDefined();
    const next = resultText(await read({ path: join(dir, 'report.pdf'), cursor }));
    const lastShown = Number([...first.matchAll(/--- page (\d+)/g)].at(-1)?.[1]);
    expect(next).toMatch(new RegExp(`--- page ${lastShown}( |$)|--- page ${lastShown + 1} `));
    const other = await read({ path: join(dir, 'spec.docx'), cursor });
    expect(other.isError).toBe(true);
    expect(resultText(other)).toContain('another document');
  });

  it('reads Word, OpenDocument, spreadsheet and presentation files', async () => {
    const docx = resultText(await read({ path: join(dir, 'spec.docx') }));
    expect(docx).toContain('| Region | Sales |');
    // One part with nothing to say about it: no empty "---  ---" heading.
    expect(docx).toContain('1 part; part 1 shown.');
    expect(docx).not.toMatch(/^---\s*---$/m);
    expect(resultText(await read({ path: join(dir, 'minutes.odt') }))).toContain('## Minutes');
    const book = resultText(await read({ path: join(dir, 'book.xlsx') }));
    expect(book).toContain('--- sheet 1 — "Summary" — used range A1:B4, 4 rows ---');
    expect(book).toContain('| 4 | Total | 7 |');
    expect(book).toMatch(/\[truncated: stopped at 500 rows; call read_document again with cursor/);
    const deck = resultText(await read({ path: join(dir, 'deck.pptx'), pages: '1' }));
    expect(deck).toContain('Welcome');
    expect(deck).toMatch(/Notes:\n<untrusted-data[^>]*>\nSay hello/);
  });

  it('returns an image as image content with its size', async () => {
    const result = await read({ path: join(dir, 'pixel.png') });
    expect(result.content[0]).toMatchObject({ type: 'image', mimeType: 'image/png' });
    expect(resultText(result)).toContain('image, 1×1 pixels');
  });

  it('answers hostile and broken files with a clear error and keeps serving', async () => {
    const cases: Array<[string, RegExp]> = [
      ['locked.pdf', /password-protected/],
      ['bomb.docx', /zip bomb/],
      ['half.docx', /Cannot read .*half\.docx/],
      ['mangled.pptx', /Cannot read .*mangled\.pptx/],
      ['notes.txt', /not a document read here/],
    ];
    for (const [name, message] of cases) {
      const result = await read({ path: join(dir, name) });
      expect(result.isError, name).toBe(true);
      expect(resultText(result)).toMatch(message);
    }
    expect(resultText(await read({ path: join(dir, 'report.pdf'), pages: '9-x' }))).toMatch(
      /not a page range/,
    );
    expect(resultText(await read({ path: join(dir, 'report.pdf'), pages: '61' }))).toMatch(/has 60 pages/);
    expect((await read({ path: join(dir, 'deck.pptx') })).isError).toBeFalsy();
  });
});

describe('search_file_contents with documents: true', () => {
  it('finds text inside PDF and Office files only when asked, saying the page', async () => {
    const shared = join(dir, 'shared');
    const plain = await callChecked(conn, 'search_file_contents', { path: shared, pattern: 'Region' });
    expect(resultText(plain)).toContain('No matches found');
    const result = await callChecked(conn, 'search_file_contents', {
      path: shared,
      pattern: 'Page 7 line 2:',
      documents: true,
      contextLines: 2,
    });
    expect(result.isError).toBeFalsy();
    const text = resultText(result);
    expect(text).toContain('report.pdf');
    expect(text).toContain('[page 7]');
    const office = resultText(
      await callChecked(conn, 'search_file_contents', {
        path: shared,
        pattern: 'Say hello',
        documents: true,
      }),
    );
    expect(office).toContain('deck.pptx');
    const table = resultText(
      await callChecked(conn, 'search_file_contents', { path: shared, pattern: 'North', documents: true }),
    );
    expect(table).toContain('spec.docx');
    // The truncated .docx is counted unreadable, not fatal.
    expect(table).toMatch(/unreadable/);
  });
});
