/** recordConnections(): which hosts count as loopback, and a spawned node's connection recorded by the preload. */
import { execFile } from 'node:child_process';
import { createServer } from 'node:net';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { isLoopbackTarget, recordConnections, tempDir } from '../src/index.js';

describe('recordConnections', () => {
  it('counts 127.0.0.0/8, ::1, localhost and unix sockets as loopback, nothing else', () => {
    for (const host of [
      '127.0.0.1',
      '127.1.2.3',
      '::1',
      '[::1]',
      'localhost',
      'unix:/tmp/s',
      '::ffff:127.0.0.1',
    ])
      expect(isLoopbackTarget(host), host).toBe(true);
    for (const host of ['slack.com', '10.0.0.1', '128.0.0.1', '::ffff:10.0.0.1', '0.0.0.0'])
      expect(isLoopbackTarget(host), host).toBe(false);
  });

  it("records a child process's connection through NODE_OPTIONS", async () => {
    const dir = await tempDir('refmcp-net-record-');
    const server = createServer((s) => s.end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as { port: number }).port;
      const recorder = recordConnections(dir.dir);
      const script = `require('node:net').connect(${port}, '127.0.0.1').on('close', () => {}).end()`;
      // Asynchronously: the server answers from this process's event loop.
      await promisify(execFile)(process.execPath, ['-e', script], {
        env: { ...process.env, ...recorder.env },
      });
      expect(recorder.connections()).toContainEqual({ host: '127.0.0.1', port });
      expect(recorder.offLoopback()).toEqual([]);
    } finally {
      server.close();
      await dir.cleanup();
    }
  });
});
