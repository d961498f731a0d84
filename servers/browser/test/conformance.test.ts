/**
 * The harness's conformance checks (cases ALL-01 … ALL-08) against the built browser server with a
 * real Chromium, the annotation of every tool, and the README's generated tool table.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkServer, renderToolsTable, serverBin, withToolsTable } from '@refmcp/test-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, tempDir } from './support.js';

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterAll(() => cleanup());

describe('conformance (ALL-01 … ALL-08)', () => {
  it('passes every harness check', async () => {
    const bin = serverBin('browser');
    const auditLog = join(dir, 'audit.log');
    const report = await checkServer(
      {
        command: bin.command,
        args: [
          ...bin.args,
          '--enable-evaluate',
          '--output-dir',
          join(dir, 'out'),
          '--upload-dir',
          dir,
          '--audit-log',
          auditLog,
        ],
        // ALL-03: a credential in the environment (hosts pass theirs along) must never be echoed,
        // nor reach the browser's environment.
        env: { GITHUB_TOKEN: 'TESTTOKEN123', MCP_BROWSER_PROXY_PASSWORD: 'TESTTOKEN123' },
      },
      {
        secrets: ['TESTTOKEN123'],
        auditLog,
        // A pure time wait (it starts no browser): ALL-04 closes stdin meanwhile, ALL-07 calls
        // tools/list meanwhile. Exit with a running browser is tested in isolation.test.ts.
        slowCall: { name: 'browser_wait_for', arguments: { time: 5 } },
        callTimeoutMs: 30_000,
      },
    );
    const failed = report.checks.filter((c) => !c.ok).map((c) => `${c.id}: ${c.details.join('; ')}`);
    expect(failed).toEqual([]);
    expect(report.checks.filter((c) => c.skipped).map((c) => c.id)).toEqual([]);
  }, 240_000);
});

/** Every tool's hints, stated here on purpose: a changed hint must be a deliberate change. */
const EXPECTED_HINTS: Record<
  string,
  [readOnly: boolean, destructive: boolean, idempotent: boolean, openWorld: boolean]
> = {
  browser_navigate: [false, false, false, true],
  browser_navigate_back: [false, false, false, true],
  browser_snapshot: [true, false, false, true],
  browser_wait_for: [true, false, true, true],
  browser_click: [false, true, false, true],
  browser_type: [false, true, false, true],
  browser_fill_form: [false, true, false, true],
  browser_select_option: [false, true, false, true],
  browser_hover: [false, true, false, true],
  browser_drag: [false, true, false, true],
  browser_press_key: [false, true, false, true],
  browser_read_markdown: [true, false, true, true],
  browser_get_text: [true, false, true, true],
  browser_take_screenshot: [true, false, true, true],
  browser_pdf_save: [false, true, true, true],
  browser_console_messages: [true, false, true, false],
  browser_network_requests: [true, false, true, false],
  browser_tabs: [false, true, false, true],
  browser_handle_dialog: [false, true, false, true],
  browser_file_upload: [false, true, false, true],
  browser_resize: [false, false, true, true],
  browser_evaluate: [false, true, false, true],
  browser_close: [false, true, true, true],
};

describe('tools', () => {
  it('lists the @playwright/mcp core tools plus the reading tools, each with the intended annotations', async () => {
    const conn = await startServer(['--enable-evaluate']);
    try {
      const { tools } = await conn.client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(Object.keys(EXPECTED_HINTS).sort());
      for (const tool of tools) {
        const [readOnlyHint, destructiveHint, idempotentHint, openWorldHint] =
          EXPECTED_HINTS[tool.name] ?? [];
        expect({ tool: tool.name, ...tool.annotations }).toMatchObject({
          tool: tool.name,
          readOnlyHint,
          destructiveHint,
          idempotentHint,
          openWorldHint,
        });
      }
    } finally {
      await conn.close();
    }
  });

  it('--read-only serves only the read-only tools', async () => {
    const conn = await startServer(['--read-only']);
    try {
      const { tools } = await conn.client.listTools();
      const expected = Object.entries(EXPECTED_HINTS).filter(([, [readOnly]]) => readOnly);
      expect(tools.map((t) => t.name).sort()).toEqual(expected.map(([name]) => name).sort());
    } finally {
      await conn.close();
    }
  });

  it('README tool table is generated from the definitions and current (UPDATE_README=1 rewrites it)', async () => {
    const readmePath = fileURLToPath(new URL('../README.md', import.meta.url));
    const conn = await startServer(['--enable-evaluate']);
    try {
      const { tools } = await conn.client.listTools();
      const readme = await readFile(readmePath, 'utf8');
      const current = withToolsTable(readme, renderToolsTable(tools));
      if (process.env.UPDATE_README === '1') await writeFile(readmePath, current);
      expect(
        readme,
        'README tool table is stale: run UPDATE_README=1 pnpm --filter @refmcp/server-browser test',
      ).toBe(current);
    } finally {
      await conn.close();
    }
  });
});
