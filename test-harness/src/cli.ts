// mcp-harness: list the tools of, call a tool of, or check any stdio MCP server from a terminal;
// also checks this repo's registry data (`npm run registry`) and starts a fake API for trying a
// server offline (`fake`).

import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { checkServer } from './check-server.js';
import { callTool, listAllTools } from './checks/context.js';
import { showUrlElicitations, URL_ELICITATION } from './client-answers.js';
import { type Connection, connect, type Era, errorMessage } from './connect.js';
import { FAKE_VENDORS, type FakeVendorName, runFake } from './fake-command.js';
import { formatCallResult, formatReport, formatTools } from './format.js';
import { HostConfigError, readHostConfig } from './host-config.js';
import { checkRegistry, writeRegistry } from './registry.js';
import type { LaunchTarget } from './transport.js';

const USAGE = `usage: mcp-harness <command> [options] (-- CMD [ARGS…] | --config FILE --server NAME)

commands:
  tools                  list the server's tools
  call TOOL [JSON]       call TOOL with a JSON object of arguments (default {})
  session                call tools one after another on one server: reads "TOOL [JSON]"
                         lines from stdin (# starts a comment), prints each result; for
                         stateful servers (browser: navigate, then click a ref it returned)
  registry [--write]     check this repo's registry.json and server.json files
                         (--write: regenerate registry.json first); needs no server
  fake VENDOR            start a seeded fake API (github, gitlab, slack, drive, brave) on
                         127.0.0.1, print the env that points its server at it, run until
                         Ctrl-C; needs no server
  check                  run the conformance checks (stdout purity, metadata, hostile
                         arguments, secrets, stdin EOF, pagination, timeouts, both eras)

server (one of):
  -- CMD [ARGS…]         the command that starts the stdio server, with this shell's
                         environment (e.g. GITHUB_PERSONAL_ACCESS_TOKEN=… before the command)
  --config FILE          a host config: {"mcpServers": {NAME: {command, args, env, cwd}}}
                         (Claude Desktop, Cursor) or VS Code's {"servers": {…}}; as a host
                         does, the server gets its env over a minimal set (PATH, HOME, …)
  --server NAME          the entry of --config to use

options:
  --era legacy|modern    protocol era for tools and call: 2025-11-25 handshake (default) or
                         2026-07-28 (server/discover); check always tests both
  --json                 machine-readable JSON on stdout
  --timeout MS           per-request and connect timeout in milliseconds (default 10000)
  --elicit-url           call, session: declare URL elicitation; a URL the server asks the
                         user to open (a sign-in) is printed on stderr and accepted, and a
                         call waits as long as the server reports progress
  -h, --help             show this help

check options:
  --allow-destructive    also call tools not annotated readOnlyHint, with made-up arguments
                         (off by default: only read-only tools are called)
  --secret VALUE         a credential that must never appear in any output (repeatable)
  --audit-log FILE       the server's audit log, scanned for secrets too
  --slow-call TOOL       a tool call that takes a while, for the stdin-EOF and timeout checks
  --slow-args JSON       its arguments (default {})
  --skip ID              skip a check, e.g. --skip ALL-04 (repeatable)

exit status: 0 all passed, 1 a check failed / the tool returned an error / the server
could not be used, 2 usage error`;

class UsageError extends Error {}

const OPTIONS = {
  config: { type: 'string' },
  server: { type: 'string' },
  era: { type: 'string' },
  json: { type: 'boolean' },
  timeout: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  'allow-destructive': { type: 'boolean' },
  secret: { type: 'string', multiple: true },
  'audit-log': { type: 'string' },
  'slow-call': { type: 'string' },
  'slow-args': { type: 'string' },
  write: { type: 'boolean' },
  skip: { type: 'string', multiple: true },
  'elicit-url': { type: 'boolean' },
} as const;

function parseJsonObject(text: string, what: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${what}: not valid JSON (${errorMessage(error)})`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new UsageError(`${what}: not a JSON object`);
  return value as Record<string, unknown>;
}

/** Parses argv (without node and script) into a command, its operands, the target and options. */
function parseCommandLine(argv: string[]) {
  const parse = () =>
    parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, tokens: true, strict: true });
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse();
  } catch (error) {
    throw new UsageError(errorMessage(error));
  }
  const { values, tokens } = parsed;
  const terminator = tokens.find((t) => t.kind === 'option-terminator')?.index ?? Number.POSITIVE_INFINITY;
  const before: string[] = [];
  const after: string[] = [];
  for (const t of tokens) if (t.kind === 'positional') (t.index > terminator ? after : before).push(t.value);
  const [command, ...operands] = before;
  return { values, command, operands, serverCommand: after };
}

function resolveTarget(values: { config?: string; server?: string }, serverCommand: string[]): LaunchTarget {
  const [command, ...args] = serverCommand;
  if (command !== undefined && (values.config !== undefined || values.server !== undefined)) {
    throw new UsageError('give either -- CMD … or --config/--server, not both');
  }
  // As when you run CMD yourself, it gets this shell's environment (tokens, DATABASE_URL, …); a
  // --config entry gets what a host gives: its env block over a minimal set (PATH, HOME, …).
  if (command !== undefined) return { command, args, env: inheritedEnvironment() };
  if (values.config === undefined) {
    throw new UsageError('no server: give -- CMD [ARGS…] or --config FILE --server NAME');
  }
  try {
    return readHostConfig(values.config, values.server).server;
  } catch (error) {
    if (error instanceof HostConfigError) throw new UsageError(error.message);
    throw error;
  }
}

/** This process's environment, without unset entries. */
function inheritedEnvironment(): Record<string, string> {
  return Object.fromEntries(
    Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}

function parseEra(value: string | undefined): Era {
  if (value === undefined || value === 'legacy' || value === 'modern') return value ?? 'legacy';
  throw new UsageError(`--era must be legacy or modern, not ${JSON.stringify(value)}`);
}

function parseTimeout(value: string | undefined): number {
  if (value === undefined) return 10_000;
  const ms = Number(value);
  if (!Number.isInteger(ms) || ms <= 0)
    throw new UsageError(`--timeout must be a positive integer (milliseconds)`);
  return ms;
}

/** Runs the CLI; resolves to the exit code. Output goes to stdout, diagnostics to stderr. */
async function main(argv: string[]): Promise<number> {
  let cli: ReturnType<typeof parseCommandLine>;
  let target: LaunchTarget;
  let era: Era;
  let timeoutMs: number;
  try {
    cli = parseCommandLine(argv);
    if (cli.values.help) {
      console.log(USAGE);
      return 0;
    }
    if (!cli.command) throw new UsageError('no command given');
    if (cli.command === 'registry') return runRegistry(cli.values.write === true, cli.operands);
    if (cli.command === 'fake') return await runFake(fakeVendor(cli.operands));
    if (!['tools', 'call', 'session', 'check'].includes(cli.command))
      throw new UsageError(`unknown command "${cli.command}"`);
    // What is wrong with the command line itself is said before what is missing around it.
    if (cli.command === 'call' && !cli.operands[0]) throw new UsageError('call needs a TOOL name');
    if (cli.values['elicit-url'] && !['call', 'session'].includes(cli.command))
      throw new UsageError('--elicit-url is for call and session');
    target = resolveTarget(cli.values, cli.serverCommand);
    era = parseEra(cli.values.era);
    timeoutMs = parseTimeout(cli.values.timeout);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    // Bare `mcp-harness`: the usage itself; any other mistake: its one line and where help is.
    console.error(argv.length ? usageError(error.message) : `mcp-harness: ${error.message}\n\n${USAGE}`);
    return 2;
  }
  const { values, command, operands } = cli;
  try {
    if (command === 'check') return await runCheck(target, values, operands, timeoutMs);
    if (command === 'tools') return await runTools(target, era, timeoutMs, values.json === true, operands);
    const elicitUrl = values['elicit-url'] === true;
    if (command === 'session')
      return await runSession(target, era, timeoutMs, values.json === true, operands, elicitUrl);
    return await runCall(target, era, timeoutMs, values.json === true, operands, elicitUrl);
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(usageError(error.message));
      return 2;
    }
    console.error(`mcp-harness: ${errorMessage(error)}`);
    return 1;
  }
}

/** A usage mistake as the servers say theirs: the reason, then how to get the usage (not all of it). */
function usageError(message: string): string {
  const self = fileURLToPath(import.meta.url);
  return `mcp-harness: ${message}\nRun \`mcp-harness --help\` (from this checkout: \`node ${self} --help\`) for the usage.`;
}

/** The VENDOR operand of `fake`; UsageError when missing, extra or unknown. */
function fakeVendor(operands: string[]): FakeVendorName {
  const [vendor, ...extra] = operands;
  if (!vendor || extra.length > 0 || !(FAKE_VENDORS as readonly string[]).includes(vendor))
    throw new UsageError(
      `fake takes one of ${FAKE_VENDORS.join(', ')} (got ${operands.join(' ') || 'nothing'})`,
    );
  return vendor as FakeVendorName;
}

/** `registry [--write]`: problems on stderr, one per line; exit 1 if any. */
function runRegistry(write: boolean, operands: string[]): number {
  if (operands.length > 0) throw new UsageError(`registry takes no operands (got ${operands.join(' ')})`);
  // dist/cli.js and src/cli.ts both sit two levels below the repository root.
  const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
  let problems: string[];
  try {
    if (write) writeRegistry(repoRoot);
    problems = checkRegistry(repoRoot);
  } catch (error) {
    console.error(`mcp-harness registry: ${errorMessage(error)}`);
    return 1;
  }
  for (const problem of problems) console.error(problem);
  if (problems.length === 0)
    console.log(write ? 'registry.json written; all server.json files valid' : 'registry OK');
  return problems.length === 0 ? 0 : 1;
}

async function runTools(
  target: LaunchTarget,
  era: Era,
  timeoutMs: number,
  json: boolean,
  operands: string[],
) {
  if (operands.length > 0) throw new UsageError(`tools takes no operands (got ${operands.join(' ')})`);
  const conn = await connect({ ...target, era, timeoutMs });
  try {
    const tools = await listAllTools(conn, timeoutMs);
    console.log(json ? JSON.stringify({ tools }, null, 2) : formatTools(tools));
    return 0;
  } finally {
    await conn.close();
  }
}

/**
 * `session`: one server, tools called in the order of stdin's "TOOL [JSON]" lines; each result is
 * printed after a "> line" header (or as one JSON line with --json). A bad line or a failed call is
 * reported and the session goes on; exit 1 if any was.
 */
async function runSession(
  target: LaunchTarget,
  era: Era,
  timeoutMs: number,
  json: boolean,
  operands: string[],
  elicitUrl: boolean,
) {
  if (operands.length > 0)
    throw new UsageError(`session reads its calls from stdin (got operands: ${operands.join(' ')})`);
  const conn = await connectFor(target, era, timeoutMs, elicitUrl);
  let failed = false;
  try {
    let lineNumber = 0;
    for await (const raw of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
      lineNumber++;
      const line = raw.trim();
      if (!line || line.startsWith('#')) continue;
      const [, name = '', argsText = ''] = /^(\S+)\s*(.*)$/.exec(line) ?? [];
      let args: Record<string, unknown>;
      try {
        args = argsText ? parseJsonObject(argsText, `line ${lineNumber}: the arguments of ${name}`) : {};
      } catch (error) {
        console.error(`mcp-harness: ${errorMessage(error)}`);
        failed = true;
        continue;
      }
      const outcome = await callTool(conn, name, args, timeoutMs, elicitUrl);
      if (outcome.kind === 'result') {
        if (outcome.result.isError) failed = true;
        console.log(
          json
            ? JSON.stringify({ tool: name, result: outcome.result })
            : `> ${line}\n${formatCallResult(outcome.result)}\n`,
        );
        continue;
      }
      failed = true;
      const error = outcomeError(outcome);
      console.log(json ? JSON.stringify({ tool: name, error }) : `> ${line}\nerror: ${error}\n`);
    }
  } finally {
    await conn.close();
  }
  return failed ? 1 : 0;
}

async function runCall(
  target: LaunchTarget,
  era: Era,
  timeoutMs: number,
  json: boolean,
  operands: string[],
  elicitUrl: boolean,
) {
  const [name, argsText, ...extra] = operands;
  if (!name) throw new UsageError('call needs a TOOL name');
  if (extra.length > 0)
    throw new UsageError(`call takes TOOL and one JSON argument (got extra: ${extra.join(' ')})`);
  const args = argsText === undefined ? {} : parseJsonObject(argsText, `the arguments of ${name}`);
  const conn = await connectFor(target, era, timeoutMs, elicitUrl);
  try {
    const outcome = await callTool(conn, name, args, timeoutMs, elicitUrl);
    if (outcome.kind === 'result') {
      console.log(json ? JSON.stringify(outcome.result, null, 2) : formatCallResult(outcome.result));
      return outcome.result.isError ? 1 : 0;
    }
    const error =
      outcome.kind === 'rpc-error'
        ? { code: outcome.code, message: outcome.message }
        : { message: outcome.message };
    if (json) console.log(JSON.stringify({ error }, null, 2));
    else console.error(`mcp-harness: ${outcomeError(outcome)}`);
    return 1;
  } finally {
    await conn.close();
  }
}

/** The connection of call and session; with --elicit-url, declaring and showing URL elicitations. */
async function connectFor(
  target: LaunchTarget,
  era: Era,
  timeoutMs: number,
  elicitUrl: boolean,
): Promise<Connection> {
  if (!elicitUrl) return connect({ ...target, era, timeoutMs });
  const conn = await connect({ ...target, era, timeoutMs, capabilities: URL_ELICITATION });
  showUrlElicitations(conn, (text) => process.stderr.write(text));
  return conn;
}

/** A call that got no tool result, in words ("JSON-RPC error -32602: …" or the transport's message). */
function outcomeError(outcome: Exclude<Awaited<ReturnType<typeof callTool>>, { kind: 'result' }>): string {
  return `${outcome.kind === 'rpc-error' ? `JSON-RPC error ${outcome.code}: ` : ''}${outcome.message}`;
}

async function runCheck(
  target: LaunchTarget,
  values: ReturnType<typeof parseCommandLine>['values'],
  operands: string[],
  timeoutMs: number,
) {
  if (operands.length > 0) throw new UsageError(`check takes no operands (got ${operands.join(' ')})`);
  if (values['slow-args'] !== undefined && values['slow-call'] === undefined)
    throw new UsageError('--slow-args needs --slow-call');
  const slowArgs =
    values['slow-args'] === undefined ? {} : parseJsonObject(values['slow-args'], '--slow-args');
  const report = await checkServer(target, {
    destructive: values['allow-destructive'] === true,
    secrets: values.secret ?? [],
    skip: values.skip ?? [],
    callTimeoutMs: timeoutMs,
    connectTimeoutMs: timeoutMs,
    ...(values['audit-log'] === undefined ? {} : { auditLog: values['audit-log'] }),
    ...(values['slow-call'] === undefined
      ? {}
      : { slowCall: { name: values['slow-call'], arguments: slowArgs } }),
  });
  console.log(values.json ? JSON.stringify(report, null, 2) : formatReport(report));
  return report.ok ? 0 : 1;
}

process.exitCode = await main(process.argv.slice(2));
