// checkServer: the conformance checks every server passes (cases ALL-01..ALL-08 in
// shared/cases/all-servers.md, ALL-06 excepted: it is server-specific, see assertNoInvisible;
// META and PORT on every tool's metadata and schemas; ALL-09 and ALL-10 from issue 12: every
// request answered once, U+2028/U+2029 escaped on stdout).

import {
  CheckContext,
  type CheckReport,
  type CheckResult,
  type CheckServerOptions,
} from './checks/context.js';
import {
  checkEveryRequestAnswered,
  exerciseLineSeparators,
  lineSeparatorVerdict,
} from './checks/envelopes.js';
import { checkEras } from './checks/eras.js';
import { checkHostileArguments } from './checks/hostile-args.js';
import { checkToolMetadata } from './checks/metadata.js';
import { checkPagination } from './checks/pagination.js';
import { checkPortability } from './checks/portability.js';
import { exerciseUnderDebugEnv, stdoutPurityVerdict } from './checks/purity.js';
import { exerciseForSecrets, secretsVerdict } from './checks/secrets.js';
import { checkStdinEof } from './checks/stdin-eof.js';
import { checkTimeouts } from './checks/timeouts.js';
import { describeCommand, errorMessage } from './connect.js';
import type { LaunchTarget } from './transport.js';

/** Ids and names of the checks, in report order. */
export const CHECKS = [
  { id: 'CONNECT', name: 'spawn and handshake' },
  { id: 'META', name: 'tool metadata (title, description, schemas, annotations)' },
  { id: 'PORT', name: 'portable schemas (any host, OpenAI strict, Inspector --strict)' },
  { id: 'ALL-01', name: 'stdout purity' },
  { id: 'ALL-02', name: 'hostile arguments' },
  { id: 'ALL-03', name: 'secrets never echoed' },
  { id: 'ALL-04', name: 'stdin EOF → prompt exit' },
  { id: 'ALL-05', name: 'pagination contract' },
  { id: 'ALL-07', name: 'slow call does not block others' },
  { id: 'ALL-08', name: 'both protocol eras' },
  { id: 'ALL-09', name: 'every request gets exactly one answer' },
  { id: 'ALL-10', name: 'U+2028/U+2029 escaped on stdout' },
] as const;

const nameOf = (id: string) => CHECKS.find((c) => c.id === id)?.name ?? id;

/**
 * Launches `target` several times over stdio (a main legacy connection, one with debug env, one in
 * the modern era, one to close stdin on) and runs every check; returns one result per check, in
 * {@link CHECKS} order. Never throws for server misbehaviour — a crash, a hang or a failed
 * handshake is a failing check. Takes a few seconds plus the slow call's duration (twice) and
 * ~2 s for a server that ignores stdin EOF. Every process it started is gone when it resolves.
 */
export async function checkServer(target: LaunchTarget, opts: CheckServerOptions = {}): Promise<CheckReport> {
  const started = Date.now();
  const ctx = new CheckContext(target, opts);
  const skip = new Set(opts.skip ?? []);
  const results = new Map<string, CheckResult>();
  const run = async (id: string, fn: () => Promise<CheckResult | undefined>): Promise<void> => {
    if (skip.has(id)) {
      results.set(id, { id, name: nameOf(id), ok: true, skipped: true, details: ['skipped by option'] });
      return;
    }
    try {
      const result = await fn();
      if (result) results.set(id, result);
    } catch (error) {
      results.set(id, {
        id,
        name: nameOf(id),
        ok: false,
        details: [`check could not run: ${errorMessage(error)}`],
      });
    }
  };

  let server: CheckReport['server'];
  try {
    const main = await ctx.main();
    const tools = await ctx.tools();
    if (main.serverInfo) server = { name: main.serverInfo.name, version: main.serverInfo.version };
    results.set('CONNECT', {
      id: 'CONNECT',
      name: nameOf('CONNECT'),
      ok: true,
      details: [
        `${server?.name ?? '?'} ${server?.version ?? '?'} via ${describeCommand(target)}`,
        `protocol ${main.protocolVersion}, ${tools.length} tool(s)`,
      ],
    });
  } catch (error) {
    await ctx.closeAll();
    const failed = {
      id: 'CONNECT',
      name: nameOf('CONNECT'),
      ok: false,
      details: [maskSecrets(errorMessage(error), opts.secrets ?? [])],
    };
    return { ok: false, checks: [failed], durationMs: Date.now() - started };
  }

  let purityNotes: string[] | undefined;
  await run('META', () => checkToolMetadata(ctx));
  await run('PORT', () => checkPortability(ctx));
  await run('ALL-05', () => checkPagination(ctx));
  await run('ALL-02', () => checkHostileArguments(ctx));
  await run('ALL-07', () => checkTimeouts(ctx));
  await run('ALL-08', () => checkEras(ctx));
  await run('ALL-09', () => checkEveryRequestAnswered(ctx));
  let lineSeparatorsSent = false;
  await run('ALL-10', async () => {
    await exerciseLineSeparators(ctx);
    lineSeparatorsSent = true;
    return undefined;
  });
  await run('ALL-01', async () => {
    purityNotes = await exerciseUnderDebugEnv(ctx);
    return undefined;
  });
  await run('ALL-03', async () => {
    await exerciseForSecrets(ctx);
    return undefined;
  });
  await run('ALL-04', () => checkStdinEof(ctx));
  await ctx.closeAll();
  // Verdicts that cover the output of every connection, now that all of it has been read.
  if (purityNotes) results.set('ALL-01', stdoutPurityVerdict(ctx, purityNotes));
  if (lineSeparatorsSent) results.set('ALL-10', lineSeparatorVerdict(ctx));
  if (!results.has('ALL-03')) await run('ALL-03', () => secretsVerdict(ctx));

  const checks = CHECKS.map((c) => results.get(c.id))
    .filter((r): r is CheckResult => r !== undefined)
    .map((r) => ({ ...r, details: r.details.map((d) => maskSecrets(d, opts.secrets ?? [])) }));
  return {
    ok: checks.every((c) => c.ok),
    checks,
    ...(server ? { server } : {}),
    durationMs: Date.now() - started,
  };
}

/** `text` with every secret replaced by "***" (details quote server output, which may hold one). */
function maskSecrets(text: string, secrets: string[]): string {
  let out = text;
  for (const secret of secrets) if (secret) out = out.split(secret).join('***');
  return out;
}
