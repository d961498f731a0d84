// Shutdown on stdin EOF (shared/src/server/run.ts) through the built server, with a host that reads
// stdout slowly: answers written before EOF must arrive whole, not cut at the pipe's 64 KiB buffer.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { serverBin, tempDir } from '@refmcp/test-harness';
import { afterAll, describe, expect, it } from 'vitest';

const { dir, cleanup } = await tempDir();
afterAll(cleanup);

describe('stdin EOF with a slow reader', () => {
  it('delivers a 1.8 MB answer whole before exiting', async () => {
    const text = `${'0123456789abcdef'.repeat(64)}\n`.repeat(880); // 902 KB, in text and structuredContent
    await writeFile(join(dir, 'big.txt'), text);
    const bin = serverBin('filesystem');
    const child = spawn(bin.command, [...bin.args, '--max-result-bytes', '4000000', dir], {
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    const closed = once(child, 'close').then(([code]) => code as number); // exited, stdout read to its end
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    const requests = [
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'read_text_file', arguments: { path: join(dir, 'big.txt') } },
      },
    ];
    child.stdin.write(requests.map((r) => `${JSON.stringify(r)}\n`).join(''));
    // Once the answer's first bytes arrive, all of it has been written (one write of ~1.8 MB): stop
    // reading, so the rest waits in the pipe and in the server, then close stdin as a host does.
    while (!Buffer.concat(chunks).includes('"id":2') && !Buffer.concat(chunks).includes('"content"'))
      await sleep(10);
    child.stdout.pause();
    child.stdin.end();
    await sleep(300);
    child.stdout.resume();
    // Bounded: a cut answer must fail below, not time out.
    const code = await Promise.race([closed, sleep(10_000).then(() => 'no exit')]);
    child.kill('SIGKILL');
    const lines = Buffer.concat(chunks).toString('utf8').split('\n').filter(Boolean);
    const answers = lines.map(
      (line) => JSON.parse(line) as { id?: number; result?: { content?: { text: string }[] } },
    );
    expect(answers.map((a) => a.id)).toEqual([1, 2]);
    expect(answers[1]?.result?.content?.[0]?.text).toContain(text.slice(0, 1000));
    expect(code).toBe(0);
  });
});
