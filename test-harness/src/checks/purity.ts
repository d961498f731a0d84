// ALL-01 stdout purity: stdout carries JSON-RPC only. A debug-env connection exercises every tool;
// the verdict then covers the stdout of every connection the run opened.
import type { Tool } from '@modelcontextprotocol/client';
import { type JsonSchema, synthesizeArgs } from '../synthesize.js';
import { type CheckContext, type CheckResult, capabilities, listAllTools, preview } from './context.js';
import { hostileCases, UNKNOWN_KEY } from './hostile-args.js';

/**
 * Environment that turns on debug output in common logging setups (debug, pino/winston, Node, Rust).
 * NODE_DEBUG leaves out `child_process`: Node itself would dump every child's environment to stderr.
 */
export const DEBUG_ENV: Record<string, string> = {
  DEBUG: '*',
  LOG_LEVEL: 'debug',
  NODE_DEBUG: 'http,net,tls,stream',
  RUST_LOG: 'debug',
  VERBOSE: '1',
};

/** Arguments that should be rejected: a missing/wrong-typed argument, else an unknown key. */
function invalidArgs(tool: Tool): Record<string, unknown> {
  const first = hostileCases(tool).strict[0];
  return first ? first.args : { ...synthesizeArgs(tool.inputSchema as JsonSchema), [UNKNOWN_KEY]: 1 };
}

/** ALL-01 part 1: handshake, lists and every callable tool (valid + invalid args) under {@link DEBUG_ENV}. */
export async function exerciseUnderDebugEnv(ctx: CheckContext): Promise<string[]> {
  const conn = await ctx.open('debug-env', { env: DEBUG_ENV });
  const tools = await listAllTools(conn, ctx.callTimeoutMs);
  const caps = capabilities(conn);
  const lists = [
    ...(caps.resources ? (['resources/list', 'resources/templates/list'] as const) : []),
    ...(caps.prompts ? (['prompts/list'] as const) : []),
  ];
  for (const method of lists) {
    await conn.client.request({ method, params: {} }, { timeout: ctx.callTimeoutMs }).catch(() => undefined);
  }
  let called = 0;
  for (const tool of tools) {
    if (!ctx.mayCall(tool)) continue;
    const target = conn.exitStatus() ? await ctx.open('debug-env (reopened)', { env: DEBUG_ENV }) : conn;
    await ctx.call(target, tool.name, synthesizeArgs(tool.inputSchema as JsonSchema));
    await ctx.call(target, tool.name, invalidArgs(tool));
    called++;
  }
  const env = Object.entries(DEBUG_ENV)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
  return [`called ${called} of ${tools.length} tool(s) with valid and invalid arguments under ${env}`];
}

/** ALL-01 verdict: every stdout line of every connection of the run parsed as JSON-RPC. */
export function stdoutPurityVerdict(ctx: CheckContext, notes: string[]): CheckResult {
  const failures: string[] = [];
  let lines = 0;
  for (const { label, conn } of ctx.connections) {
    lines += conn.stdoutLines().length;
    const counts = new Map<string, number>();
    for (const line of conn.nonJsonStdout()) counts.set(line, (counts.get(line) ?? 0) + 1);
    for (const [line, n] of counts) {
      failures.push(`[${label}] stdout line is not JSON-RPC${n > 1 ? ` (×${n})` : ''}: ${preview(line)}`);
    }
  }
  const shown = failures.slice(0, 20);
  if (failures.length > 20) shown.push(`… and ${failures.length - 20} more`);
  return {
    id: 'ALL-01',
    name: 'stdout purity',
    ok: failures.length === 0,
    details: [...shown, ...notes, `${lines} stdout line(s) over ${ctx.connections.length} connection(s)`],
  };
}
