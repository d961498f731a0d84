/**
 * The demo: a scripted host session. It reads a host config file in the standard `mcpServers`
 * format (test-harness/demo/mcp.json), launches the filesystem server from it over stdio on this
 * repository's own checkout (plus a scratch directory), and prints a readable transcript of a short
 * agent task. No credentials, no network.
 *
 * Usage: node test-harness/dist/demo.js   (run from the repository root: `npm run demo`)
 */
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { connect } from './connect.js';
import { readHostConfig } from './host-config.js';

const repoRoot = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const configPath = join(repoRoot, 'test-harness/demo/mcp.json');

const bold = (s: string) => (process.stdout.isTTY ? `\x1b[1m${s}\x1b[0m` : s);
const dim = (s: string) => (process.stdout.isTTY ? `\x1b[2m${s}\x1b[0m` : s);
const indent = (text: string, lines = 14) => {
  const all = text.split('\n');
  const shown = all.slice(0, lines).map((l) => `    ${l}`);
  if (all.length > lines) shown.push(dim(`    … ${all.length - lines} more lines`));
  return shown.join('\n');
};
const textOf = (r: CallToolResult) =>
  r.content
    .filter((c) => c.type === 'text')
    .map((c) => c.text)
    .join('\n');

async function main() {
  const scratch = await mkdtemp(join(tmpdir(), 'refmcp-demo-'));
  const { name, server } = readHostConfig(configPath, 'filesystem');
  console.log(bold(`refmcp demo — host config ${configPath.replace(`${repoRoot}/`, '')}, server "${name}"`));
  console.log(
    dim(`  launch: ${server.command} ${[...(server.args ?? []), scratch].join(' ')}  (cwd: repository root)`),
  );

  const started = performance.now();
  const conn = await connect({
    command: server.command,
    args: [...(server.args ?? []), scratch],
    env: server.env,
    cwd: repoRoot,
    era: 'modern',
  });
  let calls = 0;
  let errors = 0;
  const call = async (tool: string, args: Record<string, unknown>, why: string) => {
    console.log(`\n${bold(`▶ ${tool}`)} ${dim(JSON.stringify(args))}\n  ${dim(why)}`);
    const result = (await conn.client.callTool({ name: tool, arguments: args })) as CallToolResult;
    calls++;
    if (result.isError) errors++;
    console.log(`  ${result.isError ? '✗ isError' : '✓'}`);
    console.log(indent(textOf(result)));
    return result;
  };

  try {
    console.log(
      `\n${bold('Connected')}  protocol ${conn.protocolVersion} (${conn.era} era)  server ${conn.serverInfo?.name} ${conn.serverInfo?.version}`,
    );
    const { tools } = await conn.client.listTools();
    console.log(`\n${bold(`Tools (${tools.length})`)}`);
    for (const t of tools) {
      const mode = t.annotations?.readOnlyHint
        ? 'read-only'
        : t.annotations?.destructiveHint
          ? 'destructive'
          : 'write';
      console.log(`  ${t.name.padEnd(28)} ${dim(mode.padEnd(12))}${t.title ?? ''}`);
    }

    console.log(
      `\n${bold('Task: where is the server bootstrap defined, and how would we change its shutdown budget?')}`,
    );
    const found = await call(
      'search_file_contents',
      { path: 'shared', pattern: 'const SHUTDOWN_BUDGET_MS', include: ['**/*.ts'] },
      'Content search over the checkout (literal, .gitignore respected).',
    );
    const match = (found.structuredContent as { matches?: { path: string; line: number }[] } | undefined)
      ?.matches?.[0];
    if (!match) throw new Error('the demo expected to find SHUTDOWN_BUDGET_MS');
    await call(
      'read_text_file',
      { path: match.path, offset: Math.max(1, match.line - 2), limit: 6 },
      `Read only the lines around the match (line ${match.line}).`,
    );
    const copy = join(scratch, 'run.ts');
    await cp(resolve(repoRoot, match.path), copy);
    await call(
      'edit_file',
      {
        path: copy,
        edits: [{ oldText: 'SHUTDOWN_BUDGET_MS = 1500', newText: 'SHUTDOWN_BUDGET_MS = 1000' }],
        dryRun: true,
      },
      'Preview the edit on a scratch copy: a diff, nothing written.',
    );
    await call('read_text_file', { path: '../../etc/passwd' }, 'An escape attempt: must be refused.');

    const ms = Math.round(performance.now() - started);
    const dirty = conn.nonJsonStdout().length;
    console.log(
      `\n${bold('Summary')}: ${calls} tool calls in ${ms} ms, ${errors} refused as expected (escape attempt), ` +
        `${dirty === 0 ? 'stdout carried only JSON-RPC' : `${dirty} non-JSON stdout lines!`}.`,
    );
    if (errors !== 1 || dirty !== 0) process.exitCode = 1;
  } finally {
    await conn.close();
    await rm(scratch, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(`demo failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
