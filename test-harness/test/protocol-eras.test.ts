// Issue 28 item 8, protocol details over stdio on built servers: in the 2026-07-28 era every
// request's protocol version is checked (not only the first's); `resources/read` of an unknown
// resource is -32002 up to 2025-11-25 and -32602 from 2026-07-28 (SEP-2164).
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { byId, rawStdio } from './stdio-raw.js';

const META = (version: string) => ({
  'io.modelcontextprotocol/protocolVersion': version,
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
});

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'refmcp-eras-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('2026-07-28 over stdio: every request names a supported version', () => {
  for (const [name, args] of [
    ['filesystem', () => [dir]],
    ['search', () => []],
  ] as const)
    it(`${name}: a later request claiming 2099-01-01, or none, is refused; 2026-07-28 ones are served`, async () => {
      const conn = rawStdio(name, args(), { BRAVE_API_KEY: '' });
      try {
        conn.send({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: META('2026-07-28') } });
        expect(await conn.next(byId(1))).toMatchObject({ result: { tools: expect.any(Array) } });
        conn.send({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: META('2099-01-01') } });
        expect(await conn.next(byId(2))).toMatchObject({
          error: { code: -32022, data: { supported: ['2026-07-28'], requested: '2099-01-01' } },
        });
        conn.send({ jsonrpc: '2.0', id: 3, method: 'tools/list', params: {} });
        expect(await conn.next(byId(3))).toMatchObject({ error: { code: -32602 } });
        conn.send({ jsonrpc: '2.0', id: 4, method: 'tools/list', params: { _meta: META('2026-07-28') } });
        expect(await conn.next(byId(4))).toMatchObject({ result: { tools: expect.any(Array) } });
      } finally {
        await conn.close();
      }
    });
});

// On the wire: the SDK client rebuilds either code as its ResourceNotFoundError (-32602).
describe('resources/read of an unknown resource: -32002 to 2025-11-25, -32602 from 2026-07-28', () => {
  const INIT = (version: string) => ({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  });
  for (const [name, args, uri] of [
    ['filesystem', () => [dir], () => `file://${join(dir, 'missing.txt')}`],
    ['sqlite', () => ['--db-path', join(dir, 'eras.db'), '--allow-writes'], () => 'sqlite://schema/nope'],
  ] as const)
    it(name, async () => {
      for (const version of ['2025-11-25', '2025-06-18']) {
        const legacy = rawStdio(name, args());
        try {
          legacy.send(INIT(version));
          await legacy.next(byId(1));
          legacy.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
          legacy.send({ jsonrpc: '2.0', id: 2, method: 'resources/read', params: { uri: uri() } });
          expect(await legacy.next(byId(2))).toMatchObject({ error: { code: -32002, data: { uri: uri() } } });
        } finally {
          await legacy.close();
        }
      }
      const modern = rawStdio(name, args());
      try {
        modern.send({
          jsonrpc: '2.0',
          id: 2,
          method: 'resources/read',
          params: { uri: uri(), _meta: META('2026-07-28') },
        });
        expect(await modern.next(byId(2))).toMatchObject({ error: { code: -32602, data: { uri: uri() } } });
      } finally {
        await modern.close();
      }
    });
});

describe('a call cancelled while the client has not answered roots/list (filesystem)', () => {
  it('is released by the cancel, and the audit log says cancelled, not ok', async () => {
    const audit = join(dir, 'audit.jsonl');
    const conn = rawStdio('filesystem', ['--audit-log', audit, dir]);
    try {
      conn.send({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: { roots: {} },
          clientInfo: { name: 'raw', version: '1' },
        },
      });
      await conn.next(byId(1));
      conn.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      // The server asks for the roots; this client never answers, so the call below waits for them.
      await conn.next((m) => (m as { method?: string }).method === 'roots/list');
      conn.send({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'list_directory', arguments: { path: '.' } },
      });
      conn.send({
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: 2, reason: 'user stopped' },
      });
      // A later request is served while the roots are still unanswered: the cancelled call let go.
      conn.send({ jsonrpc: '2.0', id: 3, method: 'ping' });
      await conn.next(byId(3));
      let line: { tool?: string; outcome?: string; durationMs?: number } | undefined;
      for (let i = 0; i < 50 && !line; i++) {
        const text = await readFile(audit, 'utf8').catch(() => '');
        line = text
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as typeof line)
          .find((l) => l?.tool === 'list_directory');
        if (!line) await new Promise((r) => setTimeout(r, 100));
      }
      expect(line?.outcome).toBe('cancelled');
      // Released by the cancel, not by the 10 s roots/list timeout.
      expect(line?.durationMs).toBeLessThan(10_000);
      expect(conn.lines().find(byId(2))).toBeUndefined();
    } finally {
      await conn.close();
    }
  });
});

describe('browser over stdio: sessions only, as over HTTP', () => {
  it('refuses a 2026-07-28 request with -32022 naming 2025-11-25, then serves an initialize session', async () => {
    const conn = rawStdio('browser', []);
    try {
      conn.send({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: META('2026-07-28') } });
      expect(await conn.next(byId(1))).toMatchObject({
        error: { code: -32022, data: { supported: ['2025-11-25'], requested: '2026-07-28' } },
      });
      conn.send({
        jsonrpc: '2.0',
        id: 2,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'raw', version: '1' },
        },
      });
      expect(await conn.next(byId(2))).toMatchObject({ result: { protocolVersion: '2025-11-25' } });
      conn.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      conn.send({ jsonrpc: '2.0', id: 3, method: 'tools/list', params: {} });
      expect(await conn.next(byId(3))).toMatchObject({ result: { tools: expect.any(Array) } });
    } finally {
      await conn.close();
    }
  });
});

describe('JSON-RPC batches over stdio', () => {
  const init = (version: string) => ({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  });
  for (const name of ['filesystem', 'search'] as const)
    it(`${name}: a session negotiated at 2025-03-26 gets one array of answers; 2025-11-25 still refuses`, async () => {
      const old = rawStdio(name, name === 'filesystem' ? [dir] : [], { BRAVE_API_KEY: '' });
      try {
        old.send(init('2025-03-26'));
        expect(await old.next(byId(1))).toMatchObject({ result: { protocolVersion: '2025-03-26' } });
        old.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
        old.send([
          { jsonrpc: '2.0', id: 2, method: 'tools/list' },
          { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 99 } },
          { jsonrpc: '2.0', id: 3, method: 'ping' },
          { jsonrpc: '1.0', id: 4, method: 'ping' },
        ]);
        const answers = (await old.next(Array.isArray)) as {
          id: number;
          result?: unknown;
          error?: { code: number };
        }[];
        expect(answers.map((a) => a.id).sort()).toEqual([2, 3, 4]);
        expect(answers.find((a) => a.id === 2)?.result).toMatchObject({ tools: expect.any(Array) });
        expect(answers.find((a) => a.id === 3)?.result).toEqual({});
        expect(answers.find((a) => a.id === 4)?.error?.code).toBe(-32600);
        // A single request is answered as before, not wrapped.
        old.send({ jsonrpc: '2.0', id: 5, method: 'ping' });
        expect(await old.next(byId(5))).toMatchObject({ result: {} });
      } finally {
        await old.close();
      }
      const current = rawStdio(name, name === 'filesystem' ? [dir] : [], { BRAVE_API_KEY: '' });
      try {
        current.send(init('2025-11-25'));
        await current.next(byId(1));
        current.send([{ jsonrpc: '2.0', id: 2, method: 'ping' }]);
        expect(await current.next((m) => (m as { error?: unknown }).error !== undefined)).toMatchObject({
          error: { code: -32600, message: expect.stringMatching(/batches are not supported/) },
        });
      } finally {
        await current.close();
      }
    });
});
