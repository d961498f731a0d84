/**
 * The harness's conformance suite against the built PostgreSQL server (writes enabled, so the
 * execute tool is exercised too): checks ALL-01 … ALL-08, tool snapshots, the README's generated
 * tool table; and what --read-only does to the descriptions.
 */
import { describeConformance } from '@refmcp/test-harness/conformance';
import { describe, expect, it } from 'vitest';
import { TOOLSETS } from '../src/toolsets.js';
import { PASSWORD } from './global-setup.js';
import { db, startServer } from './support.js';

describeConformance({
  server: 'postgres',
  testFile: import.meta.url,
  // --allow-writes in every launch, so the toolset launches find execute too (it exists only then).
  args: () => [db().url, '--allow-writes'],
  allTools: ['--toolsets', 'all'],
  toolsets: TOOLSETS.map((t) => t.name),
  check: () => {
    expect(db().url).toContain(PASSWORD); // ALL-03: the connection-string password is the secret
    return {
      args: ['--statement-timeout', '4000'],
      secrets: [PASSWORD],
      slowCall: { name: 'query', arguments: { sql: 'SELECT pg_sleep(30)' } },
    };
  },
  timeoutMs: 180_000,
});

describe('read-only', () => {
  it('--read-only wins over --allow-writes: no execute tool, descriptions say read-only', async () => {
    const conn = await startServer(['--allow-writes', '--read-only']);
    try {
      const { tools } = await conn.client.listTools();
      expect(tools.map((t) => t.name)).not.toContain('execute');
      for (const t of tools) expect(t.description, t.name).toMatch(/read-only/i);
      for (const t of tools) expect(t.description, t.name).not.toMatch(/writes enabled/i);
    } finally {
      await conn.close();
    }
  });
});
