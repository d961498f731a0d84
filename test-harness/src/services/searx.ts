/**
 * A real SearXNG-compatible engine for tests, the demo and the bench: Debian's `searx` package
 * (1.1.0, SearXNG's predecessor with the same JSON API, `/search?format=json`), started on
 * 127.0.0.1 on a free port with a settings file of our own: JSON output enabled, plain-http
 * engines allowed, and only the engines the caller names — each a `json_engine` reading a URL the
 * test serves locally — so no request ever leaves the machine.
 *
 * Install: `apt-get install -y searx` (`npm test` does it as root on Debian/Ubuntu: scripts/provision.mjs). Without it,
 * {@link startSearx} rejects with {@link SEARX_MISSING}, which says exactly that.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './ports.js';
import { findProgram } from './which.js';

/** Where Debian installs the launcher; `searx-run` on the PATH is used when it is not there. */
export const SEARX_BIN = '/usr/bin/searx-run';

/** What a test says when searx is absent. */
export const SEARX_MISSING =
  'searx is not installed: the search server tests run a real local searx (Debian package searx 1.1.0). Install it with `sudo apt-get install -y searx` (`npm test` does this as root on Debian/Ubuntu), then rerun.';

/** A local JSON engine: searx calls `searchUrl` ({query} and {pageno} filled in) and reads `results[]`. */
export interface SearxEngine {
  name: string;
  /** e.g. `http://127.0.0.1:PORT/results.json?q={query}&page={pageno}` */
  searchUrl: string;
  /** searx categories, e.g. "general" or "news"; default general. */
  categories?: string;
  /** Keys of each result (defaults url, title, content) and of the results array (default results). */
  resultsQuery?: string;
}

/** A running searx. */
export interface SearxService {
  /** Base URL for SEARXNG_URL, e.g. `http://127.0.0.1:41234`. */
  url: string;
  pid: number;
  /** Stops searx and deletes its settings directory. */
  stop(): Promise<void>;
}

/** True when the searx launcher is installed. */
export function searxInstalled(): boolean {
  return findProgram(SEARX_BIN, 'searx-run') !== undefined;
}

/** The settings.yml of a throwaway instance on `port` serving `engines`. */
export function searxSettings(port: number, engines: SearxEngine[]): string {
  const engineLines = engines.flatMap((e, i) => [
    `  - name: ${e.name}`,
    '    engine: json_engine',
    `    shortcut: e${i}`,
    `    categories: ${e.categories ?? 'general'}`,
    '    paging: True',
    `    search_url: ${e.searchUrl}`,
    `    results_query: ${e.resultsQuery ?? 'results'}`,
    '    url_query: url',
    '    title_query: title',
    '    content_query: content',
    '    timeout: 5.0',
    '    enable_http: True',
  ]);
  return `general:
    debug: False
    instance_name: "refmcp-test"
    enable_stats: False
search:
    safe_search: 0
    autocomplete: ""
    default_lang: ""
    ban_time_on_fail: 0
    max_ban_time_on_fail: 0
    formats: [html, json]
server:
    port: ${port}
    bind_address: "127.0.0.1"
    secret_key: "refmcp-test-only-${process.pid}"
    base_url: False
    image_proxy: False
    http_protocol_version: "1.0"
    method: "GET"
ui:
    static_path: "/usr/share/python3-searx/static"
    templates_path: "/usr/share/python3-searx/templates"
    default_theme: oscar
    default_locale: ""
    theme_args:
        oscar_style: logicodev
outgoing:
    request_timeout: 5.0
    pool_connections: 10
    pool_maxsize: 10
engines:
${engineLines.join('\n')}
locales:
    en: English
doi_resolvers:
    oadoi.org: 'https://oadoi.org/'
default_doi_resolver: 'oadoi.org'
`;
}

/**
 * Starts searx with `engines` and resolves once `/search?format=json` answers. Errors: rejects
 * with {@link SEARX_MISSING} when the package is absent, or when it does not answer within
 * `timeoutMs` (default 30 000; its log tail in the message); nothing is left running then.
 */
export async function startSearx(engines: SearxEngine[], timeoutMs = 30_000): Promise<SearxService> {
  const bin = findProgram(SEARX_BIN, 'searx-run');
  if (!bin) throw new Error(SEARX_MISSING);
  const dir = await mkdtemp(join(tmpdir(), 'refmcp-searx-'));
  const port = await freePort();
  const settings = join(dir, 'settings.yml');
  await writeFile(settings, searxSettings(port, engines));
  const child: ChildProcess = spawn(bin, [], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', SEARX_SETTINGS_PATH: settings, LANG: 'C.UTF-8' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  child.stderr?.on('data', (d: Buffer) => {
    log = (log + d.toString()).slice(-4000);
  });
  const kill = () => child.kill('SIGKILL');
  process.once('exit', kill);
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    process.off('exit', kill);
    if (child.exitCode === null && child.signalCode === null) {
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
      await gone;
      clearTimeout(timer);
    }
    await rm(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    try {
      const res = await fetch(`${url}/config`, { signal: AbortSignal.timeout(1000) });
      if (res.ok) return { url, pid: child.pid ?? 0, stop };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  await stop();
  throw new Error(`searx did not start within ${timeoutMs} ms:\n${log.split('\n').slice(-15).join('\n')}`);
}
