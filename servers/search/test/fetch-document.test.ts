/**
 * fetch_url on documents through the built server: a PDF is read by its Content-Type (not its URL's
 * extension) as text per page, under the same network policy as pages; a password-protected PDF,
 * a zip bomb served as .docx and a corrupt PDF are clear errors; a PDF named .html is still a PDF.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { callChecked, structured } from '@refmcp/test-harness';
import { makeDocx, makeEncryptedPdf, makePdf, makeZipBomb, truncated } from '@refmcp/test-harness/documents';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from './support.js';

let server: Server;
let origin: string;
const hits: string[] = [];

beforeAll(async () => {
  const pdf = await makePdf(3, { scanned: [2] });
  const routes: Record<string, [string, Buffer]> = {
    '/download?id=7': ['application/pdf', pdf],
    '/spec.docx': [
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      await makeDocx(),
    ],
    '/looks-like.html': ['application/octet-stream', pdf],
    '/locked': ['application/pdf', await makeEncryptedPdf()],
    '/broken': ['application/pdf', truncated(pdf, 0.05)],
    '/bomb': ['application/vnd.openxmlformats-officedocument.wordprocessingml.document', makeZipBomb(5, 256)],
  };
  server = createServer((req, res) => {
    hits.push(req.url ?? '');
    const route = routes[req.url ?? ''];
    if (!route) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': route[0], 'content-length': route[1].length });
    res.end(route[1]);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const env = { BRAVE_API_KEY: '' };

describe('fetch_url on documents', () => {
  it('reads a PDF by its Content-Type as text per page, labelled untrusted, scanned pages said', async () => {
    const conn = await startServer(undefined, ['--allowed-origins', origin, '--toolsets', 'fetch'], { env });
    try {
      const result = await callChecked(conn, 'fetch_url', { url: `${origin}/download?id=7` });
      expect(result.isError).toBeFalsy();
      const page = structured<{ markdown: string; contentType: string }>(result);
      expect(page.contentType).toBe('application/pdf');
      expect(page.markdown).toContain('PDF, 3 pages.');
      expect(page.markdown).toContain('## Page 1');
      expect(page.markdown).toContain('Page 1 line 1: the quick brown fox');
      expect(page.markdown).toMatch(/## Page 2\n\n_no text layer/);
      expect(result.text).toMatch(/untrusted-data/);
      const sniffed = await callChecked(conn, 'fetch_url', { url: `${origin}/looks-like.html` });
      expect(structured<{ markdown: string }>(sniffed).markdown).toContain('Page 3 line 1');
      for (const [path, message] of [
        ['/locked', /password-protected/],
        ['/broken', /PDF that cannot be read/],
        ['/bomb', /zip bomb/],
      ] as const) {
        const failed = await callChecked(conn, 'fetch_url', { url: `${origin}${path}` });
        expect(failed.isError, path).toBe(true);
        expect(failed.text).toMatch(message);
      }
    } finally {
      await conn.close();
    }
  }, 120_000); // six reads, each in a fresh document worker: over 30 s at load 35

  it('reads a Word document as one part, counted in the singular', async () => {
    const conn = await startServer(undefined, ['--allowed-origins', origin, '--toolsets', 'fetch'], { env });
    try {
      const result = await callChecked(conn, 'fetch_url', { url: `${origin}/spec.docx` });
      expect(result.isError, result.text).toBeFalsy();
      const { markdown } = structured<{ markdown: string }>(result);
      expect(markdown).toMatch(/^Word \(\.docx\), 1 part\.\n/);
      expect(markdown).not.toContain('1 parts');
      expect(markdown).toContain('| Region | Sales |');
    } finally {
      await conn.close();
    }
  });

  it('is refused by the network policy like any page (the PDF is never requested)', async () => {
    const conn = await startServer(undefined, ['--toolsets', 'fetch'], { env });
    try {
      const before = hits.length;
      const result = await callChecked(conn, 'fetch_url', { url: `${origin}/download?id=7` });
      expect(result.isError).toBe(true);
      expect(result.text).toMatch(/loopback/i);
      expect(hits.length).toBe(before);
    } finally {
      await conn.close();
    }
  });
});
