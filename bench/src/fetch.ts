/**
 * `node dist/fetch.js`: per-call cost of the search server's fetch_url on ordinary HTML pages served
 * on 127.0.0.1 — a 6 KB article and a 120 KB one — read `BENCH_FETCH_CALLS` times each (default 40)
 * by one session: the first call (which starts the page converter) and the median and 90th
 * percentile of the rest, in ms, and the server's peak RSS (workers included). SEARCH_DIST points at
 * another build of the server (e.g. one made before a change) to compare. A benchmark, never a
 * test: it fails on no number.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { peakRssBytes } from '@refmcp/test-harness';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const dist = process.env.SEARCH_DIST ?? join(repo, 'servers/search/dist');
const calls = Number(process.env.BENCH_FETCH_CALLS ?? 40);

const paragraph = (i: number) =>
  `<p>Paragraph ${i}: the harbour master publishes the tide tables every week, and the fleet plans its departures around them; see <a href="/archive/${i}">the archive</a>.</p>`;
const page = (title: string, n: number) =>
  `<!doctype html><html><head><title>${title}</title></head><body><nav><a href="/">Home</a></nav><article><h1>${title}</h1>${Array.from({ length: n }, (_, i) => paragraph(i)).join('\n')}</article><footer>footer</footer></body></html>`;
const pages: Record<string, string> = { '/small': page('Small', 40), '/medium': page('Medium', 800) };

const site = createServer((req, res) => {
  const body = pages[req.url ?? ''];
  if (!body) return void res.writeHead(404).end();
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
});
await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;

const transport = new StdioClientTransport({
  command: process.execPath,
  args: [join(dist, 'index.js'), '--toolsets', 'fetch', '--allowed-origins', origin],
  env: { ...(process.env as Record<string, string>), BRAVE_API_KEY: '' },
  stderr: 'ignore',
});
const client = new Client({ name: 'bench-fetch', version: '1' });
await client.connect(transport);
const pid = transport.pid ?? undefined;

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
for (const path of Object.keys(pages)) {
  const times: number[] = [];
  for (let i = 0; i < calls; i++) {
    const started = performance.now();
    const r = await client.callTool({ name: 'fetch_url', arguments: { url: `${origin}${path}` } });
    times.push(performance.now() - started);
    if (r.isError) throw new Error(`${path}: ${JSON.stringify(r.content).slice(0, 300)}`);
  }
  const rest = times.slice(1).sort((a, b) => a - b);
  console.log(
    JSON.stringify({
      page: path,
      pageBytes: Buffer.byteLength(pages[path] ?? ''),
      calls,
      firstMs: Math.round(times[0] ?? 0),
      medianMs: Number(quantile(rest, 0.5).toFixed(1)),
      p90Ms: Number(quantile(rest, 0.9).toFixed(1)),
    }),
  );
}
const rss = pid ? peakRssBytes(pid) : undefined;
console.log(JSON.stringify({ dist, peakRssMiB: rss ? Math.round(rss / 2 ** 20) : undefined }));
await client.close();
site.close();
