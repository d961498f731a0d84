/**
 * read_file on uploaded documents through the built server against the fake Drive: a PDF by page
 * (range and cursor), .docx as Markdown, .xlsx per sheet, .pptx per slide with notes; an encrypted
 * PDF and a zip bomb are clear errors; Google Docs keep their native export.
 */
import { callChecked } from '@refmcp/test-harness';
import {
  makeDocx,
  makeEncryptedPdf,
  makePdf,
  makePptx,
  makeWorkbook,
  makeZipBomb,
} from '@refmcp/test-harness/documents';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSession, type Session, structured } from './support.js';

const OFFICE = 'application/vnd.openxmlformats-officedocument';
let session: Session;
beforeAll(async () => {
  session = await openSession();
  const add = (id: string, name: string, mimeType: string, content: Buffer) =>
    session.fake.state.addFile({ id, name, mimeType, content });
  add('PDFDOC', 'contract.pdf', 'application/pdf', await makePdf(60, { scanned: [2], linesPerPage: 40 }));
  add('LOCKED', 'locked.pdf', 'application/pdf', await makeEncryptedPdf());
  add('DOCX1', 'spec.docx', `${OFFICE}.wordprocessingml.document`, await makeDocx());
  add('XLSX1', 'budget.xlsx', `${OFFICE}.spreadsheetml.sheet`, makeWorkbook(10));
  add(
    'PPTX1',
    'deck.pptx',
    `${OFFICE}.presentationml.presentation`,
    makePptx([{ text: 'Welcome', notes: 'Say hello' }]),
  );
  add('BOMB1', 'bomb.docx', `${OFFICE}.wordprocessingml.document`, makeZipBomb(5, 256));
});
afterAll(() => session.close());

const read = (args: Record<string, unknown>) => callChecked(session.conn, 'read_file', args);

describe('read_file on uploaded documents', () => {
  it('a PDF is text per page, not bytes, with a page range and a cursor that continues it', async () => {
    const range = await read({ file_id: 'PDFDOC', pages: '1-2' });
    expect(range.isError).toBeFalsy();
    expect(range.text).toContain('PDF, 60 pages; pages 1–2 shown.');
    expect(range.text).toContain('Page 1 line 40');
    expect(range.text).toMatch(/--- page 2 — no text layer/);
    expect(structured(range)).toMatchObject({ id: 'PDFDOC', contentType: 'text/markdown', offset: 0 });
    expect(structured(range).binary).toBeUndefined();
    const all = await read({ file_id: 'PDFDOC' });
    const cursor = all.text.match(/cursor "([^"]+)"/)?.[1];
    expect(all.text).toContain('call read_file again with file_id PDFDOC and cursor');
    const next = await read({ file_id: 'PDFDOC', cursor });
    expect(next.isError).toBeFalsy();
    expect(next.text).toMatch(/--- page \d+/);
  });

  it('Office files read as Markdown, sheets and slides', async () => {
    expect((await read({ file_id: 'DOCX1' })).text).toContain('| Region | Sales |');
    const book = (await read({ file_id: 'XLSX1' })).text;
    expect(book).toContain('"Summary" — used range A1:B4');
    expect(book).toContain('"Data" — used range A1:B11');
    expect((await read({ file_id: 'PPTX1' })).text).toMatch(/Welcome[\s\S]*Notes:[\s\S]*Say hello/);
  });

  it('an encrypted PDF and a zip bomb are clear errors; pages on a non-document is refused', async () => {
    const locked = await read({ file_id: 'LOCKED' });
    expect(locked.isError).toBe(true);
    expect(locked.text).toMatch(/password-protected/);
    const bomb = await read({ file_id: 'BOMB1' });
    expect(bomb.isError).toBe(true);
    expect(bomb.text).toMatch(/zip bomb/);
    const notDoc = await read({ file_id: 'PNG1', pages: '1' });
    expect(notDoc.isError).toBe(true);
    expect(notDoc.text).toMatch(/not a PDF or Office file/);
  });

  it('Google Docs keep their native Markdown export', async () => {
    const doc = await read({ file_id: 'DOC1' });
    expect(doc.isError).toBeFalsy();
    expect(structured(doc).contentType).toBe('text/markdown');
    expect(doc.text).not.toContain('PDF,');
  });
});
