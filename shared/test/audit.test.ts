import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createAuditLog, scrubSecrets, summariseForLog } from '../src/audit.js';

const dir = await mkdtemp(join(tmpdir(), 'refmcp-audit-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('audit log', () => {
  it('writes one JSON line per call with the fields, mode 0600, secrets scrubbed', async () => {
    const path = join(dir, 'audit.log');
    const log = createAuditLog(path, 'demo', ['TESTTOKEN123']);
    log.record({
      tool: 'query',
      arguments: { sql: 'select 1' },
      outcome: 'ok',
      durationMs: 1.234,
      resultBytes: 42,
    });
    log.record({
      tool: 'query',
      arguments: { sql: 'TESTTOKEN123', password: 'hunter2' },
      outcome: 'error',
      error: 'auth failed for TESTTOKEN123',
      durationMs: 3,
      resultBytes: 10,
    });
    await log.close();
    const lines = (await readFile(path, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({
      server: 'demo',
      tool: 'query',
      outcome: 'ok',
      durationMs: 1.2,
      resultBytes: 42,
    });
    expect(Date.parse(lines[0].time)).not.toBeNaN();
    expect(lines[1].arguments).toEqual({ sql: '[redacted]', password: '[redacted]' });
    expect(lines[1].error).toBe('auth failed for [redacted]');
    expect((await stat(path)).mode & 0o777).toBe(0o600);
  });

  it('summarises large values', () => {
    const summary = summariseForLog({
      content: 'x'.repeat(1_000_000),
      paths: Array.from({ length: 30 }, (_, i) => i),
    }) as {
      content: string;
      paths: unknown[];
    };
    expect(summary.content).toMatch(/^<1000000 chars: x{64}…>$/);
    expect(summary.paths).toHaveLength(21);
    expect(summary.paths[20]).toBe('<10 more items>');
  });

  it('cuts deep nesting, of arrays as of objects (a 100,000-deep array overflowed the stack)', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(summariseForLog({ params: deep })).toEqual({ params: [[[['<nested array>']]]] });
    expect(summariseForLog([{ a: { b: [{ c: { d: 1 } }] } }])).toEqual([
      { a: { b: [{ c: '<nested object>' }] } },
    ]);
  });

  it('without a path records nothing and never throws', async () => {
    const log = createAuditLog(undefined, 'demo');
    log.record({ tool: 't', arguments: {}, outcome: 'ok', durationMs: 0, resultBytes: 0 });
    await expect(log.close()).resolves.toBeUndefined();
  });

  it('scrubSecrets replaces every occurrence', () => {
    expect(scrubSecrets('a TESTTOKEN123 b TESTTOKEN123', ['TESTTOKEN123'])).toBe('a [redacted] b [redacted]');
  });
});
