/**
 * `node dist/documents.js`: document reading, ours (the built filesystem server's read_document)
 * side by side with DesktopCommander's read_file (`@wonderwhy-er/desktop-commander`, when it is
 * installed: DC_BIN=path/to/its/dist/index.js) on the same files: a 300-page PDF read whole (every
 * page, following the cursor) and a ~50 MB spreadsheet's first result. Prints pages/s, wall time,
 * peak RSS of the server process (workers included) and result bytes against the file's. A
 * benchmark, never a test: it fails on no number.
 */
import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { peakRssBytes } from '@refmcp/test-harness';
import { makePdf } from '@refmcp/test-harness/documents';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'bench-docs-'));

interface Side {
  name: string;
  command: string;
  args: string[];
  /** The calls reading `file` whole (ours follows the cursor). */
  read(client: Client, file: string): Promise<{ calls: number; bytes: number; error?: string }>;
}

const text = (r: { content?: unknown }) =>
  ((r.content ?? []) as { type: string; text?: string }[]).map((c) => c.text ?? '').join('\n');

const ours: Side = {
  name: 'refmcp read_document',
  command: process.execPath,
  args: [join(repo, 'servers/filesystem/dist/index.js'), dir],
  async read(client, file) {
    let cursor: string | undefined;
    let calls = 0;
    let bytes = 0;
    do {
      const r = await client.callTool({
        name: 'read_document',
        arguments: { path: file, ...(cursor ? { cursor } : {}) },
      });
      calls++;
      const t = text(r);
      bytes += Buffer.byteLength(t);
      if (r.isError) return { calls, bytes, error: t.slice(0, 200) };
      cursor = /call read_document again with cursor "([^"]+)"/.exec(t)?.[1];
      // The spreadsheet is measured on its first result only (what a model reads first).
      if (file.endsWith('.xlsx')) break;
    } while (cursor);
    return { calls, bytes };
  },
};

const dc = (bin: string): Side => ({
  name: 'DesktopCommander read_file',
  command: process.execPath,
  args: [bin],
  async read(client, file) {
    const r = await client.callTool({
      name: 'read_file',
      arguments: { path: file, ...(file.endsWith('.pdf') ? { length: 100000 } : {}) },
    });
    const t = text(r);
    return { calls: 1, bytes: Buffer.byteLength(t), ...(r.isError ? { error: t.slice(0, 200) } : {}) };
  },
});

async function measure(side: Side, file: string, pages: number) {
  const transport = new StdioClientTransport({
    command: side.command,
    args: side.args,
    cwd: dir,
    stderr: 'ignore',
  });
  const client = new Client({ name: 'bench-documents', version: '1' });
  await client.connect(transport);
  const pid = transport.pid ?? undefined;
  const started = performance.now();
  const result = await side.read(client, file);
  const ms = performance.now() - started;
  const rss = pid ? peakRssBytes(pid) : undefined;
  await client.close();
  const size = statSync(file).size;
  return {
    side: side.name,
    file: file.replace(`${dir}/`, ''),
    ms: Math.round(ms),
    pagesPerSecond: pages ? Math.round((pages / ms) * 1000) : undefined,
    peakRssMiB: rss ? Math.round(rss / 2 ** 20) : undefined,
    calls: result.calls,
    resultBytes: result.bytes,
    fileBytes: size,
    resultToFile: Number((result.bytes / size).toFixed(3)),
    ...(result.error ? { error: result.error } : {}),
  };
}

async function bigWorkbook(path: string, rows: number): Promise<void> {
  const ExcelJS = (await import('exceljs')).default;
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: path, useSharedStrings: false });
  for (const name of ['Data', 'Summary']) {
    const ws = wb.addWorksheet(name);
    const n = name === 'Data' ? rows : 100;
    for (let r = 0; r < n; r++)
      ws.addRow([
        r,
        `item ${r} text value`,
        r * 1.5,
        `cat-${r % 97}`,
        { formula: `A${r + 1}*2`, result: r * 2 },
      ]).commit();
    ws.commit();
  }
  await wb.commit();
}

const pdf = join(dir, 'report-300.pdf');
writeFileSync(pdf, await makePdf(300, { linesPerPage: 45 }));
const xlsx = join(dir, 'big.xlsx');
await bigWorkbook(xlsx, Number(process.env.BENCH_XLSX_ROWS ?? 1_100_000));
const sides = [ours, ...(process.env.DC_BIN ? [dc(process.env.DC_BIN)] : [])];
const rows: unknown[] = [];
for (const [file, pages] of [
  [pdf, 300],
  [xlsx, 0],
] as const) {
  for (const side of sides) {
    try {
      rows.push(await measure(side, file, pages));
    } catch (error) {
      rows.push({ side: side.name, file, error: String((error as Error).message ?? error).slice(0, 200) });
    }
  }
}
console.log(`files: ${pdf} (${statSync(pdf).size} bytes), ${xlsx} (${statSync(xlsx).size} bytes)`);
for (const row of rows) console.log(JSON.stringify(row));
