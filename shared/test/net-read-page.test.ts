/**
 * readPage against a local HTTP server: 127.0.0.1 is reachable only through --allowed-origins;
 * refusals of loopback, metadata and private addresses (up front, on redirects and at connect
 * time), schemes, statuses, types, caps, timeouts; article extraction and paging.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type NetworkPolicy,
  NetworkRefusal,
  networkPolicyFromFlags,
  PageReadError,
  pageReadMarker,
  policyGet,
  type ReadPageOptions,
  readPage,
} from '../src/net/index.js';
import { useBuiltDocumentWorker } from './document-worker-support.js';

const ARTICLE = `<!doctype html><html><head><title>Tide tables | Harbour News</title>
<meta name="author" content="Ada Keel"></head><body>
<nav><a href="/">Home</a> <a href="/about">About</a></nav>
<article><h1>Tide tables</h1>
${'<p>The harbour master publishes the tide tables every week, and the fishing fleet plans its departures around them. '.repeat(4)}
See <a href="/archive/2024">the archive</a> for older tables.</p>
<p>${'Spring tides come twice a month, near the new and full moon, when the range is greatest. '.repeat(5)}</p>
<script>window.tracker = 1</script></article>
<footer>© Harbour News</footer></body></html>`;

const BIG = Array.from({ length: 4000 }, (_, i) => `line ${i}: ü € 𝄞 ${'x'.repeat(i % 50)}`).join('\n');

const routes: Record<string, (req: IncomingMessage, res: ServerResponse) => void> = {
  '/article': (_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(ARTICLE),
  '/plain-html': (_req, res) =>
    res
      .writeHead(200, { 'content-type': 'text/html' })
      .end('<html><body><p>Just <b>one</b> line.</p></body></html>'),
  '/latin1': (_req, res) =>
    res
      .writeHead(200, { 'content-type': 'text/html' })
      .end(
        Buffer.from(
          '<html><head><meta charset="iso-8859-1"></head><body><p>Caf\xe9</p></body></html>',
          'latin1',
        ),
      ),
  '/big.txt': (_req, res) => res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(BIG),
  '/data.json': (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"a":[1,2]}'),
  '/file.mp4': (_req, res) => res.writeHead(200, { 'content-type': 'video/mp4' }).end('....ftypisom'),
  '/broken.pdf': (_req, res) => res.writeHead(200, { 'content-type': 'application/pdf' }).end('%PDF-1.7'),
  '/missing': (_req, res) =>
    res.writeHead(404, 'Not Found', { 'content-type': 'text/html' }).end('<p>gone</p>'),
  '/slow': (_req, res) => {
    setTimeout(() => res.writeHead(200, { 'content-type': 'text/plain' }).end('late'), 2000).unref();
  },
  '/hop': (_req, res) => res.writeHead(302, { location: '/article' }).end(),
  '/loop': (_req, res) => res.writeHead(301, { location: '/loop' }).end(),
  '/to-metadata': (_req, res) =>
    res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end(),
  '/to-loopback': (_req, res) => res.writeHead(307, { location: `http://127.0.0.1:${otherPort}/` }).end(),
  '/to-file': (_req, res) => res.writeHead(302, { location: 'file:///etc/passwd' }).end(),
  '/huge.html': (req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.write(`<html><head><title>Huge</title></head><body><article><h1>Huge</h1>`);
    const para = '<p>Paragraph of a very long article about tides and harbours, with ü and 𝄞.</p>\n';
    const write = () => {
      while (!req.destroyed && res.write(para.repeat(100)));
      if (!req.destroyed) res.once('drain', write);
    };
    write(); // never ends: only the reader closing the connection stops it
    res.on('close', () => closed.add('/huge.html'));
  },
  '/endless': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.write('first part\n');
    const timer = setInterval(() => res.write('more\n'), 50);
    res.on('close', () => {
      clearInterval(timer);
      closed.add('/endless');
    });
  },
  '/blob': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    res.write(Buffer.alloc(64 * 1024));
    res.on('close', () => closed.add('/blob'));
  },
  '/chain': (_req, res) => res.writeHead(301, { location: '/chain-2' }).end(),
  '/chain-2': (_req, res) => res.writeHead(302, { location: `http://localhost:${otherPort}/secret` }).end(),
  '/gzip': (_req, res) =>
    res
      .writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' })
      .end(gzipSync('packed ü')),
  '/br': (_req, res) =>
    res
      .writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'br' })
      .end(brotliCompressSync('brotli ü')),
  '/changing': (_req, res) => {
    changingHits++;
    res.writeHead(200, { 'content-type': 'text/plain' }).end(`version ${changingHits}\n${'y'.repeat(3000)}`);
  },
  '/ua': (req, res) =>
    res.writeHead(200, { 'content-type': 'text/plain' }).end(String(req.headers['user-agent'])),
};

let server: Server;
let other: Server;
let base: string;
let otherPort: number;
let otherHits = 0;
let changingHits = 0;
const closed = new Set<string>();
let policy: NetworkPolicy;

const listen = (s: Server) =>
  new Promise<number>((resolve) =>
    s.listen(0, '127.0.0.1', () => resolve((s.address() as AddressInfo).port)),
  );

beforeAll(async () => {
  await useBuiltDocumentWorker();
  server = createServer((req, res) => {
    const route = routes[new URL(req.url ?? '/', 'http://x').pathname];
    if (route) route(req, res);
    else res.writeHead(404).end();
  });
  other = createServer((_req, res) => {
    otherHits++;
    res.end('secret');
  });
  const port = await listen(server);
  otherPort = await listen(other);
  base = `http://127.0.0.1:${port}`;
  policy = networkPolicyFromFlags({ 'allowed-origins': [base] });
});

afterAll(() => {
  server.close();
  other.close();
});

const options = (extra: Partial<ReadPageOptions> = {}): ReadPageOptions => ({
  policy,
  maxBytes: 100_000,
  timeoutMs: 5000,
  userAgent: 'refmcp-test/1.0',
  ...extra,
});

async function refusal(promise: Promise<unknown>): Promise<NetworkRefusal> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(NetworkRefusal);
  return error as NetworkRefusal;
}

async function failure(promise: Promise<unknown>): Promise<PageReadError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PageReadError);
  return error as PageReadError;
}

/** What a bare policyGet (no up-front URL check) fails with. */
const connectOnly = (url: string, policy: NetworkPolicy) =>
  policyGet(new URL(url), { policy, headers: {}, signal: AbortSignal.timeout(5000) }).then(
    (response) => response.close(),
    (e: unknown) => e,
  );

describe('readPage: content', () => {
  it('reads an HTML page as its readable article, links absolute, scripts and navigation dropped', async () => {
    const page = await readPage(`${base}/article`, options());
    expect(page).toMatchObject({ url: `${base}/article`, status: 200, contentType: 'text/html' });
    expect(page.extraction).toBe('article');
    expect(page.title).toMatch(/Tide tables/);
    expect(page.byline).toBe('Ada Keel');
    expect(page.markdown).toContain(`[the archive](${base}/archive/2024)`);
    expect(page.markdown).toContain('Spring tides come twice a month');
    expect(page.markdown).not.toContain('tracker');
    expect(page.markdown).not.toContain('About');
    expect(page).toMatchObject({ offset: 0, truncated: false, nextOffset: undefined });
    expect(page.totalChars).toBe(page.markdown.length);
  });

  it('falls back to the whole body when there is no article', async () => {
    const page = await readPage(`${base}/plain-html`, options());
    expect(page.extraction).toBe('body');
    expect(page.markdown).toBe('Just **one** line.');
  });

  it('decodes the charset a <meta> names', async () => {
    expect((await readPage(`${base}/latin1`, options())).markdown).toBe('Café');
  });

  it('passes text and JSON as they are, and sends the User-Agent', async () => {
    const json = await readPage(`${base}/data.json`, options());
    expect(json).toMatchObject({
      contentType: 'application/json',
      extraction: 'text',
      markdown: '{"a":[1,2]}',
    });
    expect((await readPage(`${base}/ua`, options())).markdown).toBe('refmcp-test/1.0');
  });

  it('continues through the snapshot of the first read; a read from offset 0 fetches anew', async () => {
    const first = await readPage(`${base}/changing`, options({ maxBytes: 1000 }));
    expect(first.markdown).toMatch(/^version 1\n/);
    const next = await readPage(`${base}/changing`, options({ maxBytes: 1000, offset: first.nextOffset }));
    expect(next).toMatchObject({
      offset: first.nextOffset,
      totalChars: first.totalChars,
      fetchedAt: first.fetchedAt,
    });
    expect(changingHits).toBe(1);
    expect((await readPage(`${base}/changing`, options({ maxBytes: 1000 }))).markdown).toMatch(
      /^version 2\n/,
    );
    expect(changingHits).toBe(2);
  });

  it('decodes gzip and brotli bodies', async () => {
    expect((await readPage(`${base}/gzip`, options())).markdown).toBe('packed ü');
    expect((await readPage(`${base}/br`, options())).markdown).toBe('brotli ü');
  });

  it('follows a redirect within the policy and reports the final URL', async () => {
    const page = await readPage(`${base}/hop`, options());
    expect(page.url).toBe(`${base}/article`);
    expect(page.extraction).toBe('article');
  });

  it('pages a big text by bytes: each slice within the budget, the continuation rebuilds it', async () => {
    const maxBytes = 10_000;
    let offset: number | undefined = 0;
    let rebuilt = '';
    let calls = 0;
    while (offset !== undefined) {
      const page = await readPage(`${base}/big.txt`, options({ maxBytes, offset }));
      expect(Buffer.byteLength(page.markdown, 'utf8')).toBeLessThanOrEqual(maxBytes);
      expect(page.offset).toBe(offset);
      expect(page.totalChars).toBe(BIG.length);
      expect(page.truncated).toBe(page.nextOffset !== undefined);
      rebuilt += page.markdown;
      offset = page.nextOffset;
      calls++;
    }
    expect(rebuilt).toBe(BIG);
    expect(calls).toBeGreaterThan(Buffer.byteLength(BIG, 'utf8') / maxBytes);
  });
});

describe('readPage: bodies over the caps are cut, never read whole', () => {
  it('reads the first maxBodyBytes of an endless HTML article, closes the connection and says so', async () => {
    const page = await readPage(`${base}/huge.html`, options({ maxBodyBytes: 200_000, maxBytes: 4000 }));
    expect(page).toMatchObject({
      bodyCut: 'size',
      bodyBytes: 200_000,
      truncated: true,
      extraction: 'article',
    });
    expect(page.markdown).toContain('Paragraph of a very long article');
    expect(page.markdown).not.toContain('\uFFFD');
    await expect.poll(() => closed.has('/huge.html')).toBe(true);
    const marker = pageReadMarker(page, (n) => `call fetch_url with offset=${n}`);
    expect(marker).toBe(
      `[truncated: ${page.totalChars - (page.nextOffset ?? 0)} more characters of ${page.totalChars}; ` +
        `the page was cut after its first 200000 bytes (size limit), so the rest cannot be read; call fetch_url with offset=${page.nextOffset}]`,
    );
    const next = await readPage(
      `${base}/huge.html`,
      options({ maxBodyBytes: 200_000, maxBytes: 4000, offset: page.nextOffset }),
    );
    expect(next.offset).toBe(page.nextOffset);
    expect(next.totalChars).toBe(page.totalChars);
  });

  it('answers an endless slow body at the time limit with what arrived', async () => {
    const started = Date.now();
    const page = await readPage(`${base}/endless`, options({ timeoutMs: 400 }));
    // Cut by the time limit (bodyCut says so), not left to run: ten times the limit, for a loaded machine.
    expect(Date.now() - started).toBeLessThan(400 * 10);
    expect(page).toMatchObject({ bodyCut: 'time', truncated: true, nextOffset: undefined });
    expect(page.markdown).toMatch(/^first part\nmore\n/);
    expect(pageReadMarker(page, () => 'unused')).toMatch(
      /^\[truncated: the page was cut after its first \d+ bytes \(time limit\)/,
    );
    await expect.poll(() => closed.has('/endless')).toBe(true);
  });

  it('has no marker when the whole page fit', async () => {
    expect(pageReadMarker(await readPage(`${base}/data.json`, options()), () => 'unused')).toBeUndefined();
  });
});

describe('readPage: failures name the cause', () => {
  it('an HTTP error status', async () => {
    const error = await failure(readPage(`${base}/missing`, options()));
    expect(error).toMatchObject({ reason: 'http-status', status: 404 });
    expect(error.message).toBe(`${base}/missing answered HTTP 404 Not Found`);
  });

  it('a type that is not HTML, text, JSON or a document, named', async () => {
    const error = await failure(readPage(`${base}/file.mp4`, options()));
    expect(error.reason).toBe('content-type');
    expect(error.message).toContain('video/mp4');
  });

  it('a document that cannot be read says which kind and why', async () => {
    const error = await failure(readPage(`${base}/broken.pdf`, options()));
    expect(error.reason).toBe('content-type');
    expect(error.message).toMatch(/is a PDF that cannot be read/);
  });

  it('an octet-stream whose first bytes are no document is refused without reading on', async () => {
    // The body is 64 KiB and then never ends: refused on its first bytes, not at the time limit.
    const error = await failure(readPage(`${base}/blob`, options({ timeoutMs: 20_000 })));
    expect(error.reason).toBe('content-type');
    expect(error.message).toContain('application/octet-stream');
    await expect.poll(() => closed.has('/blob')).toBe(true);
  });

  it('a timeout', async () => {
    const error = await failure(readPage(`${base}/slow`, options({ timeoutMs: 200 })));
    expect(error).toMatchObject({
      reason: 'timeout',
      message: `Timed out after 200 ms reading ${base}/slow`,
    });
  });

  it('too many redirects', async () => {
    const error = await failure(readPage(`${base}/loop`, options({ maxRedirects: 3 })));
    expect(error).toMatchObject({
      reason: 'redirects',
      message: `${base}/loop redirected more than 3 times`,
    });
  });

  it('a URL that is not absolute, or carries credentials', async () => {
    expect((await failure(readPage('example.com/x', options()))).reason).toBe('invalid-url');
    expect((await failure(readPage(`http://u:p@127.0.0.1:${otherPort}/`, options()))).reason).toBe(
      'invalid-url',
    );
  });
});

describe('readPage: the network policy', () => {
  it('refuses a loopback URL by default, naming the rule and the flag', async () => {
    const error = await refusal(readPage(`${base}/article`, options({ policy: networkPolicyFromFlags({}) })));
    expect(error.rule).toBe('loopback');
    expect(error.message).toMatch(/rule: loopback.*--allowed-origins/);
  });

  it('refuses a redirect to the metadata endpoint or to a loopback port that is not allowed, naming the hop', async () => {
    const meta = await refusal(readPage(`${base}/to-metadata`, options()));
    expect(meta.rule).toBe('metadata');
    expect(meta.message).toMatch(
      new RegExp(
        `^Redirect 1 \\(${base}/to-metadata → http://169\\.254\\.169\\.254/latest/meta-data/\\) refused\\. Refused by the network policy \\(rule: metadata\\)`,
      ),
    );
    expect((await refusal(readPage(`${base}/to-loopback`, options()))).rule).toBe('loopback');
    const chain = await refusal(readPage(`${base}/chain`, options()));
    expect(chain.rule).toBe('loopback');
    expect(chain.message).toMatch(/^Redirect 2 \(.*\/chain-2 → http:\/\/localhost:\d+\/secret\)/);
    expect(otherHits).toBe(0);
  });

  it('refuses non-http schemes, directly and as a redirect target', async () => {
    for (const url of [
      'file:///etc/passwd',
      'ftp://example.com/',
      'data:text/plain,hi',
      'javascript:alert(1)',
    ]) {
      expect((await refusal(readPage(url, options()))).rule).toBe('scheme');
    }
    const error = await refusal(readPage(`${base}/to-file`, options()));
    expect(error.message).toMatch(/^Redirect 1 \(.*\/to-file → file:\/\/\/etc\/passwd\) refused\. .*"file:"/);
  });

  it('refuses, at connect time, a host name that resolves to a private address', async () => {
    const resolving = networkPolicyFromFlags({}, { resolve: async () => ['10.1.2.3'] });
    const up = await refusal(readPage('http://intranet.example/', options({ policy: resolving })));
    expect(up.rule).toBe('private');
    // The connection alone (no up-front check): its lookup refuses before any socket opens.
    const error = await connectOnly('http://intranet.example/', resolving);
    expect(error).toBeInstanceOf(NetworkRefusal);
    expect((error as NetworkRefusal).message).toMatch(/intranet\.example resolves to 10\.1\.2\.3/);
  });

  it('refuses IPv6 loopback and IPv4-mapped forms, up front and at connect time', async () => {
    const open = networkPolicyFromFlags({});
    for (const url of [
      'http://[::1]:8080/',
      'http://[::ffff:127.0.0.1]:8080/',
      'http://[::ffff:a9fe:a9fe]/',
    ]) {
      expect(['loopback', 'metadata']).toContain(
        (await refusal(readPage(url, options({ policy: open })))).rule,
      );
      expect(await connectOnly(url, open)).toBeInstanceOf(NetworkRefusal);
    }
  });

  it('a name that does not resolve is unreachable, not refused', async () => {
    const none = networkPolicyFromFlags(
      {},
      {
        resolve: async () => {
          throw Object.assign(new Error('nx'), { code: 'ENOTFOUND' });
        },
      },
    );
    const error = await failure(readPage('https://nowhere.example/', options({ policy: none })));
    expect(error).toMatchObject({ reason: 'network' });
    expect(error.message).toBe(
      'Could not read https://nowhere.example/: Could not resolve nowhere.example (ENOTFOUND).',
    );
  });

  it('connects to exactly the address the policy checked (no second DNS answer)', async () => {
    const port = Number(new URL(base).port);
    const pinned = networkPolicyFromFlags(
      { 'allowed-origins': [`rebind.test:${port}`] },
      { resolve: async () => ['127.0.0.1'] },
    );
    const page = await readPage(`http://rebind.test:${port}/data.json`, options({ policy: pinned }));
    expect(page.markdown).toBe('{"a":[1,2]}');
  });
});
