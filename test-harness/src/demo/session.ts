/**
 * One demo scene's host session: launches a server from the demo's host config file, calls tools and
 * prints a readable transcript (arguments, ✓/✗, the first lines of each answer), counting calls.
 */
import type { CallToolResult } from '@modelcontextprotocol/client';
import { type Connection, connect, errorMessage } from '../connect.js';
import { readHostConfig } from '../host-config.js';

const tty = process.stdout.isTTY;
export const bold = (s: string) => (tty ? `\x1b[1m${s}\x1b[0m` : s);
export const dim = (s: string) => (tty ? `\x1b[2m${s}\x1b[0m` : s);

/** The text blocks of a tool result, joined. */
export const textOf = (r: CallToolResult) =>
  r.content
    .filter((c) => c.type === 'text')
    .map((c) => c.text)
    .join('\n');

function indent(text: string, lines = 14): string {
  const all = text.split('\n');
  const shown = all.slice(0, lines).map((l) => `    ${l}`);
  if (all.length > lines) shown.push(dim(`    … ${all.length - lines} more lines`));
  return shown.join('\n');
}

/** Totals over every scene, for the summary line. */
export interface DemoTotals {
  calls: number;
  refused: number;
  /** Calls that were expected to be refused and were. */
  expectedRefusals: number;
  /** Non-JSON lines seen on any server's stdout. */
  dirtyStdout: number;
}

export class DemoSession {
  private constructor(
    readonly conn: Connection,
    private readonly totals: DemoTotals,
  ) {}

  /**
   * Launches server `name` of `configPath` (cwd `repoRoot`) in the 2026-07-28 era (2025-11-25 for a
   * server that serves sessions only) and prints the handshake and tools.
   */
  static async open(
    configPath: string,
    name: string,
    repoRoot: string,
    totals: DemoTotals,
  ): Promise<DemoSession> {
    const { server } = readHostConfig(configPath, name);
    console.log(`\n${bold(`━━ ${name} ━━`)}  ${dim(`${server.command} ${(server.args ?? []).join(' ')}`)}`);
    const target = { ...server, cwd: server.cwd ?? repoRoot };
    // A server that keeps per-session state (the browser) refuses the stateless era with -32022
    // naming 2025-11-25; a host then opens a 2025-11-25 session, and so does the demo.
    const conn = await connect({ ...target, era: 'modern' }).catch((error: unknown) => {
      if (!/Unsupported protocol version/.test(errorMessage(error))) throw error;
      return connect({ ...target, era: 'legacy' });
    });
    console.log(
      `${bold('Connected')}  protocol ${conn.protocolVersion} (${conn.era} era)  server ${conn.serverInfo?.name} ${conn.serverInfo?.version}`,
    );
    const { tools } = await conn.client.listTools();
    console.log(`${bold(`Tools (${tools.length})`)}`);
    for (const t of tools) {
      const mode = t.annotations?.readOnlyHint
        ? 'read-only'
        : t.annotations?.destructiveHint
          ? 'destructive'
          : 'write';
      console.log(`  ${t.name.padEnd(28)} ${dim(mode.padEnd(12))}${t.title ?? ''}`);
    }
    return new DemoSession(conn, totals);
  }

  /** Calls `tool`, prints why, the verdict and the answer; `expectRefusal` marks a call that must be refused. */
  async call(
    tool: string,
    args: Record<string, unknown>,
    why: string,
    expectRefusal = false,
  ): Promise<CallToolResult> {
    console.log(`\n${bold(`▶ ${tool}`)} ${dim(JSON.stringify(args))}\n  ${dim(why)}`);
    const result = (await this.conn.client.callTool({ name: tool, arguments: args })) as CallToolResult;
    this.totals.calls++;
    if (result.isError) this.totals.refused++;
    if (result.isError && expectRefusal) this.totals.expectedRefusals++;
    console.log(`  ${result.isError ? '✗ isError' : '✓'}`);
    console.log(indent(textOf(result)));
    return result;
  }

  async close(): Promise<void> {
    this.totals.dirtyStdout += this.conn.nonJsonStdout().length;
    await this.conn.close();
  }
}
