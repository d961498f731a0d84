// ALL-02 hostile arguments: bad input is a tool error that names the argument, odd strings get an
// answer, and the server survives all of it. Also: an unknown tool is a JSON-RPC error.
import type { Tool } from '@modelcontextprotocol/client';
import {
  allowsExtraKeys,
  type JsonSchema,
  type PropertyInfo,
  synthesizeArgs,
  topLevelProperties,
} from '../synthesize.js';
import {
  answersToolsList,
  type CallOutcome,
  type CheckContext,
  type CheckResult,
  preview,
} from './context.js';

/** The key added by the "unknown extra key" case. */
export const UNKNOWN_KEY = 'harness_unknown_key';
/** The tool name used for the "unknown tool" case. */
export const UNKNOWN_TOOL = 'harness_no_such_tool';

/** Odd-but-legal strings each string property is given. */
export const ODD_STRINGS: Array<{ label: string; value: string }> = [
  { label: '1 MB string', value: 'a'.repeat(1024 * 1024) },
  { label: 'string with \\u0000', value: 'a\u0000b' },
  { label: 'lone surrogate \\ud800', value: '\ud800' },
  { label: 'emoji', value: '😀👍🏽🇺🇸 héllo' },
];

// Error texts that say nothing about what went wrong, or are an unhandled exception's message.
const GENERIC =
  /^\s*(internal (server )?error|error|unknown error|undefined|null|\[object object\]|an error occurred)\W*$/i;
const UNHANDLED =
  /\b(TypeError|ReferenceError|SyntaxError)\b|cannot read propert|is not a function|is not defined|undefined is not/i;
const STACK_TRACE = /\n\s+at\s+\S.*:\d+:\d+\)?/;

interface StrictCase {
  label: string;
  args: Record<string, unknown>;
  /** The result must be isError and its text must contain this name. */
  mustName: string;
}
interface OddCase {
  label: string;
  args: Record<string, unknown>;
  prop: string;
}

/** Verdict for a case whose result must be `isError` naming `name`; undefined when it passes. */
export function judgeNamedError(outcome: CallOutcome, name: string): string | undefined {
  if (outcome.kind === 'rpc-error')
    return `JSON-RPC error ${outcome.code} ${preview(outcome.message)} instead of an isError result`;
  if (outcome.kind === 'no-answer') return `no answer: ${outcome.message}`;
  if (outcome.result.isError !== true) return `accepted (isError not set): ${preview(outcome.text)}`;
  if (STACK_TRACE.test(outcome.text)) return `error text contains a stack trace: ${preview(outcome.text)}`;
  if (!outcome.text.includes(name)) return `error text does not name "${name}": ${preview(outcome.text)}`;
  return undefined;
}

/**
 * Verdict for an odd-string case; undefined when it passes. Any result passes, but an error must
 * name the property or say what is wrong — judged by what it must not be: empty, generic
 * ("Internal error"), an unhandled exception's message or a stack trace.
 */
export function judgeOddString(outcome: CallOutcome, prop: string): string | undefined {
  if (outcome.kind === 'rpc-error')
    return `JSON-RPC error ${outcome.code} ${preview(outcome.message)} instead of a result`;
  if (outcome.kind === 'no-answer') return `no answer: ${outcome.message}`;
  if (outcome.result.isError !== true) return undefined;
  const text = outcome.text;
  if (STACK_TRACE.test(text)) return `error text contains a stack trace: ${preview(text)}`;
  if (text.includes(prop)) return undefined;
  if (text.trim() === '' || GENERIC.test(text))
    return `error text says nothing about what is wrong: ${preview(text)}`;
  if (UNHANDLED.test(text)) return `error text is an unhandled exception: ${preview(text)}`;
  return undefined;
}

/** A wrong-typed value for one property, preferring required ones; undefined if every property accepts anything. */
export function wrongTypeCase(props: PropertyInfo[]): { prop: string; value: unknown } | undefined {
  const ordered = [...props.filter((p) => p.required), ...props.filter((p) => !p.required)];
  for (const p of ordered) {
    if (p.types.length === 0) continue;
    const acceptsString = p.types.includes('string');
    const acceptsNumber = p.types.includes('number') || p.types.includes('integer');
    if (!acceptsString) return { prop: p.name, value: 'abc' };
    if (!acceptsNumber) return { prop: p.name, value: 123 };
  }
  return undefined;
}

/** The strict and odd-string cases for one tool (see the module comment). */
export function hostileCases(tool: Tool): { strict: StrictCase[]; odd: OddCase[]; notes: string[] } {
  const schema = tool.inputSchema as JsonSchema;
  const base = synthesizeArgs(schema);
  const props = topLevelProperties(schema);
  const strict: StrictCase[] = [];
  const notes: string[] = [];
  const required = props.find((p) => p.required);
  if (required) {
    const { [required.name]: _dropped, ...rest } = base;
    strict.push({ label: `required "${required.name}" missing`, args: rest, mustName: required.name });
  }
  const wrong = wrongTypeCase(props);
  if (wrong) {
    strict.push({
      label: `wrong type ${wrong.prop}=${JSON.stringify(wrong.value)}`,
      args: { ...base, [wrong.prop]: wrong.value },
      mustName: wrong.prop,
    });
  }
  if (allowsExtraKeys(schema))
    notes.push(`${tool.name}: schema declares additionalProperties; unknown-key case skipped`);
  else
    strict.push({
      label: `unknown extra key "${UNKNOWN_KEY}"`,
      args: { ...base, [UNKNOWN_KEY]: 'x' },
      mustName: UNKNOWN_KEY,
    });
  const odd: OddCase[] = [];
  for (const p of props.filter((q) => q.types.includes('string'))) {
    for (const s of ODD_STRINGS)
      odd.push({ label: `${p.name}: ${s.label}`, args: { ...base, [p.name]: s.value }, prop: p.name });
  }
  return { strict, odd, notes };
}

/** ALL-02: runs {@link hostileCases} for every callable tool on the main connection, plus the unknown-tool case. */
export async function checkHostileArguments(ctx: CheckContext): Promise<CheckResult> {
  const failures: string[] = [];
  const notes: string[] = [];
  const unknown = await ctx.call(await ctx.main(), UNKNOWN_TOOL, {});
  if (unknown.kind !== 'rpc-error') {
    failures.push(
      `unknown tool "${UNKNOWN_TOOL}": expected a JSON-RPC error, got ${unknown.kind === 'result' ? `a result ${preview(unknown.text)}` : unknown.message}`,
    );
  }
  let tools = 0;
  let calls = 0;
  for (const tool of await ctx.tools()) {
    if (!ctx.mayCall(tool)) {
      notes.push(`${tool.name}: not read-only; skipped (destructive calls not allowed)`);
      continue;
    }
    const { strict, odd, notes: toolNotes } = hostileCases(tool);
    notes.push(...toolNotes);
    const cases = [
      ...strict.map((c) => ({ ...c, judge: (o: CallOutcome) => judgeNamedError(o, c.mustName) })),
      ...odd.map((c) => ({ ...c, judge: (o: CallOutcome) => judgeOddString(o, c.prop) })),
    ];
    tools++;
    for (const c of cases) {
      calls++;
      const conn = await ctx.main();
      const verdict = c.judge(await ctx.call(conn, tool.name, c.args));
      if (verdict) failures.push(`${tool.name}: ${c.label}: ${verdict}`);
      const alive = await answersToolsList(conn, 5000);
      if (alive !== true) failures.push(`${tool.name}: after ${c.label}: ${alive}`);
    }
  }
  notes.push(`${calls} hostile call(s) to ${tools} tool(s), plus one to an unknown tool`);
  return {
    id: 'ALL-02',
    name: 'hostile arguments',
    ok: failures.length === 0,
    details: [...failures, ...notes],
  };
}
