// ALL-08 both protocol eras: a 2025-11-25 client and a 2026-07-28 client see the same tools and
// get the same answers from the read-only ones.
import type { Tool } from '@modelcontextprotocol/client';
import { errorMessage } from '../connect.js';
import { type JsonSchema, synthesizeArgs } from '../synthesize.js';
import { type CallOutcome, type CheckContext, type CheckResult, listAllTools, preview } from './context.js';

const TOOL_FIELDS = [
  'title',
  'description',
  'inputSchema',
  'outputSchema',
  'annotations',
  'execution',
  'icons',
] as const;

/** JSON with object keys sorted, so equal values compare equal regardless of key order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : v,
  );
}

/** What two eras must agree on for one call: isError and the content items without `_meta`. */
function comparable(outcome: CallOutcome): string {
  if (outcome.kind !== 'result') return `${outcome.kind}: ${outcome.message}`;
  const content = (outcome.result.content ?? []).map((item) => {
    const { _meta: _ignored, ...rest } = item as Record<string, unknown>;
    return rest;
  });
  return canonicalJson({ isError: outcome.result.isError === true, content });
}

/** Differences between two tool lists (names, then each field of each tool). */
export function diffToolLists(legacy: Tool[], modern: Tool[]): string[] {
  const diffs: string[] = [];
  const byName = (tools: Tool[]) => new Map(tools.map((t) => [t.name, t]));
  const l = byName(legacy);
  const m = byName(modern);
  for (const name of l.keys()) if (!m.has(name)) diffs.push(`${name}: listed only in the legacy era`);
  for (const name of m.keys()) if (!l.has(name)) diffs.push(`${name}: listed only in the modern era`);
  for (const [name, lt] of l) {
    const mt = m.get(name);
    if (!mt) continue;
    for (const field of TOOL_FIELDS) {
      if (canonicalJson(lt[field]) !== canonicalJson(mt[field]))
        diffs.push(`${name}: ${field} differs between eras`);
    }
  }
  return diffs;
}

/**
 * The note for a sessions-only server's refusal of the 2026-07-28 era (per-connection state, e.g.
 * the browser's tabs: that era forbids state across requests), or undefined for any other error:
 * -32022 whose `data.supported` names only initialize-era versions (spec 2026-07-28, version
 * negotiation). `error` may be the harness's connect error, the refusal as its cause.
 */
export function sessionsOnlyRefusal(error: unknown): string | undefined {
  const refusal = ((error as { cause?: unknown }).cause ?? error) as {
    code?: unknown;
    data?: { supported?: unknown };
  };
  const supported = Array.isArray(refusal.data?.supported)
    ? (refusal.data.supported as unknown[])
    : undefined;
  if (refusal.code !== -32022 || !supported || supported.includes('2026-07-28')) return undefined;
  return `sessions only: the 2026-07-28 era is refused with -32022 (supported: ${supported.join(', ')})`;
}

/** ALL-08: main (legacy) vs a new modern-era connection: tool lists equal, read-only tools answer alike. */
export async function checkEras(ctx: CheckContext): Promise<CheckResult> {
  const base = { id: 'ALL-08', name: 'both protocol eras' };
  const failures: string[] = [];
  const notes: string[] = [];
  const legacy = await ctx.main();
  if (legacy.era !== 'legacy') failures.push(`legacy connection negotiated ${legacy.era}`);
  let modern: Awaited<ReturnType<CheckContext['open']>>;
  try {
    modern = await ctx.open('modern', { era: 'modern' });
  } catch (error) {
    const sessionsOnly = sessionsOnlyRefusal(error);
    if (sessionsOnly) return { ...base, ok: true, details: [sessionsOnly] };
    return {
      ...base,
      ok: false,
      details: [`modern era (2026-07-28): ${errorMessage(error)}`],
    };
  }
  if (modern.era !== 'modern') failures.push(`modern connection negotiated ${modern.era}`);
  notes.push(`legacy ${legacy.protocolVersion}, modern ${modern.protocolVersion}`);
  const legacyTools = await ctx.tools();
  const modernTools = await listAllTools(modern, ctx.callTimeoutMs);
  failures.push(...diffToolLists(legacyTools, modernTools));
  const modernNames = new Set(modernTools.map((t) => t.name));
  let compared = 0;
  for (const tool of legacyTools) {
    if (tool.annotations?.readOnlyHint !== true || !modernNames.has(tool.name)) continue;
    const args = synthesizeArgs(tool.inputSchema as JsonSchema);
    const [a, b] = [await ctx.call(legacy, tool.name, args), await ctx.call(modern, tool.name, args)];
    compared++;
    const [ca, cb] = [comparable(a), comparable(b)];
    if (ca !== cb)
      failures.push(
        `${tool.name}: answers differ — legacy ${preview(ca, 100)} vs modern ${preview(cb, 100)}`,
      );
  }
  notes.push(`${legacyTools.length} tool(s) compared, ${compared} read-only tool(s) called in both eras`);
  return { ...base, ok: failures.length === 0, details: [...failures, ...notes] };
}
