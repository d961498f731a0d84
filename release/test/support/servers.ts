/**
 * What each of the nine servers needs to start from a host config with no external service, and
 * the one real call it makes in the rehearsal: local files and databases, an embedded PostgreSQL,
 * a local page for Chromium, the harness's vendor fakes on 127.0.0.1 for the API servers.
 */
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { type FakeVendorName, startNamedFake, startPostgres } from '@refmcp/test-harness';

export interface Rehearsed {
  /** Arguments after the package name in the host config. */
  args: string[];
  /** The host config entry's `env`. */
  env: Record<string, string>;
  /** The call, and what its text must show. */
  call: { name: string; arguments: Record<string, unknown>; expect: RegExp };
  close(): Promise<void>;
}

const nothing = async () => {};

async function fake(vendor: FakeVendorName, call: Rehearsed['call']): Promise<Rehearsed> {
  const f = await startNamedFake(vendor);
  return { args: [], env: f.env, call, close: () => f.close() };
}

/** Sets up server `dir`'s surroundings in `tmp`; `native` is the env that offers native prebuilds. */
export async function rehearse(dir: string, tmp: string, native: Record<string, string>): Promise<Rehearsed> {
  switch (dir) {
    case 'filesystem':
      // read_document starts the document worker (dist/document-worker.js) and loads its chunks.
      writeFileSync(join(tmp, 'rehearsal.csv'), 'published,started\nby name,from the registry\n');
      return {
        args: [tmp],
        env: {},
        call: {
          name: 'read_document',
          arguments: { path: join(tmp, 'rehearsal.csv') },
          expect: /from the registry/,
        },
        close: nothing,
      };
    case 'sqlite': {
      const db = join(tmp, 'rehearsal.db');
      writeFileSync(db, ''); // an empty file is an empty SQLite database
      return {
        args: ['--db-path', db],
        env: native,
        call: {
          name: 'read_query',
          arguments: { query: 'SELECT sqlite_version() AS version' },
          expect: /3\.\d+\.\d+/,
        },
        close: nothing,
      };
    }
    case 'postgres': {
      const pg = await startPostgres({ embedded: true });
      return {
        args: [pg.url],
        env: {},
        call: { name: 'query', arguments: { sql: 'SELECT 40 + 2 AS answer' }, expect: /42/ },
        close: () => pg.stop(),
      };
    }
    case 'browser': {
      const page = createServer((_req, res) =>
        res
          .writeHead(200, { 'content-type': 'text/html' })
          .end('<title>Rehearsal</title><h1>Installed from the loopback registry</h1>'),
      );
      await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
      const origin = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;
      return {
        args: ['--allowed-origins', origin],
        env: {},
        call: {
          name: 'browser_navigate',
          arguments: { url: `${origin}/` },
          expect: /Installed from the loopback registry/,
        },
        close: () => new Promise((resolve) => page.close(() => resolve())),
      };
    }
    case 'github':
      return fake('github', {
        name: 'get_issue',
        arguments: { owner: 'acme', repo: 'demo', issue_number: 1 },
        expect: /acme\/demo/,
      });
    case 'gitlab':
      return fake('gitlab', {
        name: 'get_issue',
        arguments: { project_id: 'grp/proj', issue_iid: 1 },
        expect: /grp\/proj|#1/,
      });
    case 'slack':
      return fake('slack', { name: 'slack_list_channels', arguments: {}, expect: /eng/ });
    case 'drive':
      return fake('drive', { name: 'read_file', arguments: { file_id: 'DOC1' }, expect: /\S/ });
    case 'search':
      return fake('brave', {
        name: 'brave_web_search',
        arguments: { query: 'model context protocol stdio', count: 1 },
        expect: /https?:\/\//,
      });
    default:
      throw new Error(`no rehearsal set up for servers/${dir}: add it here`);
  }
}
