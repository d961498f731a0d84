// ALL-03 secrets: configured credentials never come back — not in results, errors, stderr or the
// audit log. Everything the server says goes through stdout or stderr, so both are scanned whole.
import { readFile } from 'node:fs/promises';
import type { Tool } from '@modelcontextprotocol/client';
import { errorMessage } from '../connect.js';
import { type JsonSchema, synthesizeArgs } from '../synthesize.js';
import { type CheckContext, type CheckResult, preview } from './context.js';
import { hostileCases } from './hostile-args.js';

/** The forms a secret may take in output: as is, JSON-escaped, URL-encoded. */
function forms(secret: string): string[] {
  return [...new Set([secret, JSON.stringify(secret).slice(1, -1), encodeURIComponent(secret)])];
}

/** "TES…(12 chars)" — enough to tell secrets apart without printing them. */
export function maskSecret(secret: string): string {
  return `${secret.slice(0, 3)}…(${secret.length} chars)`;
}

/** ALL-03 part 1: every callable tool with valid args and with each invalid variant, on the main connection. */
export async function exerciseForSecrets(ctx: CheckContext): Promise<void> {
  for (const tool of await ctx.tools()) {
    if (!ctx.mayCall(tool)) continue;
    for (const args of argumentSets(tool)) await ctx.call(await ctx.main(), tool.name, args);
  }
}

function argumentSets(tool: Tool): Record<string, unknown>[] {
  return [synthesizeArgs(tool.inputSchema as JsonSchema), ...hostileCases(tool).strict.map((c) => c.args)];
}

/** The masked names of the secrets `text` mentions. */
function where(text: string, secrets: string[]): string[] {
  return secrets.filter((s) => forms(s).some((f) => text.includes(f))).map(maskSecret);
}

/** `text` with every form of every secret replaced by "***", shortened for a details line. */
function masked(text: string, secrets: string[]): string {
  let out = text;
  for (const s of secrets) for (const f of forms(s)) out = out.split(f).join('***');
  return preview(out, 100);
}

/** ALL-03 verdict over every connection's stdout/stderr and the audit log; skipped without secrets. */
export async function secretsVerdict(ctx: CheckContext): Promise<CheckResult> {
  const base = { id: 'ALL-03', name: 'secrets never echoed' };
  const secrets = (ctx.opts.secrets ?? []).filter((s) => s.length > 0);
  if (secrets.length === 0) return { ...base, ok: true, skipped: true, details: ['no secrets given'] };
  const failures: string[] = [];
  const notes: string[] = [];
  for (const { label, conn } of ctx.connections) {
    conn.stdoutLines().forEach((line, i) => {
      for (const s of where(line, secrets))
        failures.push(`[${label}] secret ${s} in stdout line ${i + 1} (${describeLine(conn, line)})`);
    });
    conn
      .stderr()
      .split('\n')
      .forEach((line, i) => {
        for (const s of where(line, secrets))
          failures.push(`[${label}] secret ${s} in stderr line ${i + 1}: ${masked(line, secrets)}`);
      });
  }
  if (ctx.opts.auditLog) {
    try {
      const lines = (await readFile(ctx.opts.auditLog, 'utf8')).split('\n');
      lines.forEach((line, i) => {
        for (const s of where(line, secrets))
          failures.push(`secret ${s} in audit log line ${i + 1}: ${masked(line, secrets)}`);
      });
      notes.push(`audit log scanned (${lines.length} line(s))`);
    } catch (error) {
      notes.push(`audit log not read: ${errorMessage(error)}`);
    }
  }
  notes.push(`${secrets.length} secret(s) looked for over ${ctx.connections.length} connection(s)`);
  return { ...base, ok: failures.length === 0, details: [...failures.slice(0, 30), ...notes] };
}

function describeLine(conn: { requestLabel(id: unknown): string | undefined }, line: string): string {
  try {
    const msg = JSON.parse(line) as { id?: unknown; method?: string };
    if (msg.method) return `server message ${msg.method}`;
    return `response to ${conn.requestLabel(msg.id) ?? `request ${String(msg.id)}`}`;
  } catch {
    return 'not JSON';
  }
}
