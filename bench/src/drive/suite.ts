/**
 * The Drive suite (`--only drive`): our server against the harness's fake Drive (started here on
 * 127.0.0.1; no network, no Google account):
 *   D1 a 50-hit search: the text a model reads against the raw files.list JSON of the same 50
 *      files (every field, pretty-printed: what a server that passes Drive's answer through
 *      returns) — goal ≤ 0.3×, and a check that every hit's id, name, type and modified time is
 *      in ours;
 *   D1s the same for our structuredContent.
 * The official @modelcontextprotocol/server-gdrive cannot take part: it has no API-URL setting
 * (googleapis' default root is fixed), and its search returns 10 names and types without ids.
 * Its `search` tool's model bytes and its first start are in the context and firststart suites.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import { addManyFiles, SCENE, seedScene, startFakeDrive } from '@refmcp/test-harness/fakes/drive';
import { type Answer, row } from '../report.js';
import { BENCH_DIR } from '../servers.js';
import { StdioTransport } from '../transport.js';
import type { Context, WorkloadResult } from '../workloads/common.js';
import { preview } from '../workloads/common.js';

const bytesOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value ?? null), 'utf8');

export async function runDriveSuite(ctx: Context): Promise<WorkloadResult> {
  const fake = await startFakeDrive();
  const tmp = mkdtempSync(join(tmpdir(), 'refmcp-bench-drive-'));
  try {
    seedScene(fake);
    addManyFiles(fake, 60, 'quarterly-budget-');
    const token = join(tmp, 'credentials.json');
    writeFileSync(
      token,
      JSON.stringify({ access_token: SCENE.accessToken, expiry_date: Date.now() + 3_600_000 }),
    );
    const transport = new StdioTransport(
      process.execPath,
      [resolve(BENCH_DIR, '../servers/drive/dist/index.js')],
      {
        ...getDefaultEnvironment(),
        GDRIVE_API_URL: fake.rootUrl,
        GOOGLE_OAUTH_TOKEN_URL: fake.tokenUrl,
        GDRIVE_CREDENTIALS_PATH: token,
        GDRIVE_OAUTH_PATH: join(tmp, 'none.json'),
      },
    );
    const client = new Client({ name: 'bench', version: '1' }, { versionNegotiation: { mode: 'legacy' } });
    await client.connect(transport, { timeout: ctx.sizes.callTimeoutMs });
    let text = '';
    let structured: unknown;
    try {
      ctx.log('drive: search, 50 hits');
      const r = await transport.rawRequest('tools/call', {
        name: 'search',
        arguments: { query: 'quarterly-budget', limit: 50 },
      });
      if (r.error || r.result?.isError)
        throw new Error(`search failed: ${preview(JSON.stringify(r.error ?? r.result), 300)}`);
      text = (r.result?.content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join('');
      structured = r.result?.structuredContent;
    } finally {
      await client.close().catch(() => {});
    }
    const q =
      "(name contains 'quarterly-budget' or fullText contains 'quarterly-budget') and trashed = false";
    const url = `${fake.rootUrl}drive/v3/files?${new URLSearchParams({
      q,
      pageSize: '50',
      fields: '*',
      supportsAllDrives: 'true',
      includeItemsFromAllDrives: 'true',
      corpora: 'allDrives',
    })}`;
    const raw = (await (
      await fetch(url, { headers: { authorization: `Bearer ${SCENE.accessToken}` } })
    ).json()) as {
      files: { id: string; name: string; mimeType: string; modifiedTime: string }[];
    };
    const rawPretty = Buffer.byteLength(JSON.stringify(raw, null, 2), 'utf8');
    const hits =
      (structured as { files?: { id: string; name: string; mimeType: string; modifiedTime?: string }[] })
        ?.files ?? [];
    const missing = raw.files.filter(
      (f) =>
        !hits.some(
          (h) =>
            h.id === f.id &&
            h.name === f.name &&
            h.mimeType === f.mimeType &&
            h.modifiedTime === f.modifiedTime,
        ),
    );
    const ours = Buffer.byteLength(text, 'utf8');
    const answers: Answer[] = [
      {
        name: 'drive search (50 hits), first 100 characters',
        call: 'search {"query":"quarterly-budget","limit":50}',
        ours: preview(text, 100),
        official: '— (no API-URL setting; 10 names without ids)',
      },
    ];
    return {
      rows: [
        row({
          id: 'D1',
          name: `drive search, ${hits.length} hits: text a model reads (vs raw files.list JSON)`,
          unit: 'bytes',
          better: 'lower',
          ours: { value: ours },
          official: { value: rawPretty },
          goal: {
            ratioAtMost: 0.3,
            text: '≤ 0.3× the raw API JSON, ids kept',
            alsoRequired: {
              text: 'every hit id, name, type and modified time kept',
              met: missing.length === 0 && hits.length === 50,
            },
          },
        }),
        row({
          id: 'D1s',
          name: `drive search, ${hits.length} hits: structuredContent (vs raw files.list JSON)`,
          unit: 'bytes',
          better: 'lower',
          ours: { value: bytesOf(structured) },
          official: { value: rawPretty },
          goal: { ratioAtMost: 0.3, text: '≤ 0.3×' },
        }),
      ],
      answers,
      notes: [
        `drive search: the "official" column of D1/D1s is the raw files.list answer (fields=*, pretty-printed), ${rawPretty} bytes; ours text/raw = ${(ours / rawPretty).toFixed(3)}, structured/raw = ${(bytesOf(structured) / rawPretty).toFixed(3)}`,
        'drive: @modelcontextprotocol/server-gdrive has no API-URL setting and returns 10 names without ids per search; its tools/list and first start are compared in the context and firststart suites',
      ],
    };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
    await fake.close();
  }
}
