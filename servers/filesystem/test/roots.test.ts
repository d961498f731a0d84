/**
 * MCP client roots (2025-11-25 era) through the built server over stdio: a client's roots only
 * narrow the operator's directories, never widen them; roots/list_changed re-narrows; a client that
 * fails roots/list leaves the operator's directories in force.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type CallToolResult, Client } from '@modelcontextprotocol/client';
import { getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import { RecordingStdioTransport, resultText, serverBin, tempDir } from '@refmcp/test-harness';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

let dir: string;
let outside: string;
const cleanups: (() => Promise<void>)[] = [];
const open: { client: Client; transport: RecordingStdioTransport }[] = [];

interface RootsClient {
  client: Client;
  transport: RecordingStdioTransport;
  /** Roots the client answers roots/list with (change it, then call notify()). */
  roots: { uri: string; name?: string }[];
  /** How many times the server asked for the roots. */
  asked: () => number;
  list(path: string): Promise<CallToolResult>;
  /** Waits until the server has logged applying (or failing to apply) the roots `n` times. */
  applied(n: number): Promise<void>;
}

async function connectWithRoots(
  initial: { uri: string; name?: string }[],
  opts: { declareRoots?: boolean; failRootsList?: boolean } = {},
): Promise<RootsClient> {
  const bin = serverBin('filesystem');
  const transport = new RecordingStdioTransport({
    command: bin.command,
    args: [...bin.args, dir],
    env: getDefaultEnvironment(),
  });
  const declare = opts.declareRoots ?? true;
  const client = new Client(
    { name: 'roots-test', version: '0.0.0' },
    { capabilities: declare ? { roots: { listChanged: true } } : {} },
  );
  let asked = 0;
  const state: RootsClient = {
    client,
    transport,
    roots: initial,
    asked: () => asked,
    list: async (path) =>
      (await client.request({
        method: 'tools/call',
        params: { name: 'list_directory', arguments: { path } },
      })) as CallToolResult,
    applied: async (n) => {
      const deadline = Date.now() + 5000;
      const count = () =>
        (transport.stderr.match(/client roots \(|could not apply the client's roots/g) ?? []).length;
      while (count() < n) {
        if (Date.now() > deadline)
          throw new Error(`roots not applied ${n} time(s); stderr:\n${transport.stderr}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
  };
  if (declare) {
    client.setRequestHandler('roots/list', async () => {
      asked++;
      if (opts.failRootsList) throw new Error('roots unavailable');
      return { roots: state.roots };
    });
  }
  await client.connect(transport);
  open.push({ client, transport });
  return state;
}

beforeAll(async () => {
  const a = await tempDir('refmcp-roots-');
  const b = await tempDir('refmcp-roots-outside-');
  cleanups.push(a.cleanup, b.cleanup);
  dir = a.dir;
  outside = b.dir;
  for (const sub of ['project', 'other']) {
    mkdirSync(join(dir, sub));
    writeFileSync(join(dir, sub, `${sub}.txt`), sub);
  }
  writeFileSync(join(dir, 'top.txt'), 'top');
  writeFileSync(join(outside, 'secret.txt'), 'secret');
});

afterEach(async () => {
  for (const { client, transport } of open.splice(0)) {
    await client.close().catch(() => {});
    await transport.close(500).catch(() => {});
  }
});

afterAll(async () => {
  for (const c of cleanups) await c();
});

describe('client roots', () => {
  it('a client root inside the allowed directory narrows access to it', async () => {
    const c = await connectWithRoots([{ uri: pathToFileURL(join(dir, 'project')).href }]);
    await c.applied(1);
    expect((await c.list(join(dir, 'project'))).isError).toBeFalsy();
    const parent = await c.list(dir);
    expect(parent.isError).toBe(true);
    expect(resultText(parent)).toMatch(/outside the allowed directories/);
    expect((await c.list(join(dir, 'other'))).isError).toBe(true);
  });

  it('roots/list_changed re-narrows to the new roots', async () => {
    const c = await connectWithRoots([{ uri: pathToFileURL(join(dir, 'project')).href }]);
    await c.applied(1);
    c.roots = [{ uri: pathToFileURL(join(dir, 'other')).href }];
    await c.client.sendRootsListChanged();
    await c.applied(2);
    expect(c.asked()).toBe(2);
    expect((await c.list(join(dir, 'other'))).isError).toBeFalsy();
    expect((await c.list(join(dir, 'project'))).isError).toBe(true);
  });

  it('a client root outside the allowed directories widens nothing', async () => {
    const c = await connectWithRoots([{ uri: pathToFileURL(outside).href }]);
    await c.applied(1);
    const r = await c.list(outside);
    expect(r.isError).toBe(true);
    expect(resultText(r)).not.toContain('secret.txt');
    // A client root containing the allowed directory narrows to the allowed directory, no further out.
    const wide = await connectWithRoots([{ uri: pathToFileURL('/').href }]);
    await wide.applied(1);
    expect((await wide.list(dir)).isError).toBeFalsy();
    expect((await wide.list(outside)).isError).toBe(true);
  });

  it('keeps the operator directories when roots/list fails, and logs why on stderr', async () => {
    const c = await connectWithRoots([], { failRootsList: true });
    await c.applied(1);
    expect(c.transport.stderr).toMatch(
      /could not apply the client's roots \(initialized\): .*roots unavailable/,
    );
    expect((await c.list(dir)).isError).toBeFalsy();
  });

  it('does not ask a client that did not declare the roots capability', async () => {
    const c = await connectWithRoots([], { declareRoots: false });
    expect((await c.list(dir)).isError).toBeFalsy();
    await new Promise((r) => setTimeout(r, 200));
    expect(c.asked()).toBe(0);
    expect(c.transport.stderr).not.toMatch(/client roots \(/);
  });
});
