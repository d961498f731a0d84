/**
 * The field's MCP clients, each driven the way its users drive it, against one stdio launch:
 * - LangChain's MCP adapter (`@langchain/mcp-adapters`): `MultiServerMCPClient.getTools()`, which
 *   simplifies each inputSchema for LLMs (merging or dropping `anyOf`, `allOf`, `if`/`then`) and
 *   validates every call against what is left;
 * - the OpenAI Agents SDK (`@openai/agents-core`): `getAllMcpTools({ convertSchemasToStrict: true })`,
 *   which converts each tool to an OpenAI strict function schema, or falls back to a non-strict
 *   tool (a logged warning, `strict: false`) when it cannot;
 * - the MCP Inspector's CLI (`@modelcontextprotocol/inspector`): `--method tools/list --strict
 *   --format json`, reading the server from a host config file (`mcpServers`).
 * No client reaches a network: each spawns the server over stdio, and no model is called.
 */
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { StructuredToolInterface } from '@langchain/core/tools';
import { MultiServerMCPClient } from '@langchain/mcp-adapters';
import { getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import { Agent, type FunctionTool, getAllMcpTools, MCPServerStdio, RunContext } from '@openai/agents-core';
import { tempDir } from '@refmcp/test-harness';
import type { Launch } from './launches.js';

/** The host-like environment a client gives the server: the SDK's default set plus the launch's. */
const hostEnv = (launch: Launch): Record<string, string> => ({ ...getDefaultEnvironment(), ...launch.env });

/** LangChain tools of one server, and the client to close after use. */
export interface LangChainSession {
  tools: StructuredToolInterface[];
  close(): Promise<void>;
}

/**
 * Loads every tool of `launch` through LangChain's adapter (`throwOnLoadError`: a tool it cannot
 * load fails the call). Each tool's `schema` is the JSON Schema the adapter validates calls with.
 */
export async function langChainTools(name: string, launch: Launch): Promise<LangChainSession> {
  const client = new MultiServerMCPClient({
    mcpServers: {
      [name]: { transport: 'stdio', command: launch.command, args: launch.args, env: hostEnv(launch) },
    },
    throwOnLoadError: true,
  });
  try {
    return { tools: await client.getTools(), close: () => client.close() };
  } catch (error) {
    await client.close();
    throw error;
  }
}

/** One MCP tool as the OpenAI Agents SDK would send it to the model. */
export interface OpenAiTool {
  name: string;
  /** True when the SDK converted the schema to strict mode; false when it fell back. */
  strict: boolean;
  parameters: Record<string, unknown>;
}

/** Every tool of `launch` through the Agents SDK's MCP conversion with `convertSchemasToStrict`. */
export async function openAiStrictTools(name: string, launch: Launch): Promise<OpenAiTool[]> {
  const server = new MCPServerStdio({
    name,
    command: launch.command,
    args: launch.args,
    env: hostEnv(launch),
  });
  await server.connect();
  try {
    const tools = await getAllMcpTools({
      mcpServers: [server],
      convertSchemasToStrict: true,
      runContext: new RunContext(),
      agent: new Agent({ name: 'hosts-test' }),
    });
    return tools.map((t) => {
      const tool = t as FunctionTool;
      return { name: tool.name, strict: tool.strict, parameters: tool.parameters as Record<string, unknown> };
    });
  } finally {
    await server.close();
  }
}

/** One finding of the Inspector's schema lint (`schemaFindings[].findings[]` of its JSON output). */
export interface InspectorFinding {
  rule: string;
  severity: 'error' | 'warning';
  schema: 'inputSchema' | 'outputSchema';
  path: string;
  issue: string;
}

/** What `inspector --cli --method tools/list --strict` said about one server. */
export interface InspectorVerdict {
  exitCode: number;
  toolNames: string[];
  /** Each finding as "tool: schema.path: rule (severity)". */
  findings: string[];
  stderr: string;
}

const require = createRequire(import.meta.url);
/** The Inspector's launcher (its package has no exports map; `mcp-inspector` is this file). */
const INSPECTOR = require.resolve('@modelcontextprotocol/inspector/clients/launcher/build/index.js');
const run = promisify(execFile);

/**
 * Runs the Inspector's CLI on `launch` from a host config file: `tools/list --strict --format
 * json`. Resolves with the exit code (0 clean, 6 an error-severity finding), the listed tool names
 * and every finding; throws when the Inspector prints no JSON (it could not reach the server).
 */
export async function inspectorStrict(name: string, launch: Launch): Promise<InspectorVerdict> {
  const { dir, cleanup } = await tempDir();
  try {
    const config = join(dir, 'mcp.json');
    const entry = { command: launch.command, args: launch.args, env: launch.env };
    await writeFile(config, JSON.stringify({ mcpServers: { [name]: entry } }));
    const argv = [INSPECTOR, '--cli', '--config', config, '--server', name];
    argv.push('--method', 'tools/list', '--strict', '--format', 'json');
    const { exitCode, stdout, stderr } = await run(process.execPath, argv, {
      cwd: dir,
      env: { ...getDefaultEnvironment(), HOME: dir },
      timeout: 60_000,
      maxBuffer: 64 * 1024 * 1024,
    }).then(
      ({ stdout, stderr }) => ({ exitCode: 0, stdout, stderr }),
      (error: { code?: unknown; stdout?: string; stderr?: string }) => ({
        exitCode: typeof error.code === 'number' ? error.code : -1,
        stdout: error.stdout ?? '',
        stderr: error.stderr ?? String(error),
      }),
    );
    const line = stdout.split('\n').find((l) => l.startsWith('{'));
    if (!line) throw new Error(`inspector printed no JSON (exit ${exitCode}): ${stderr}`);
    const out = JSON.parse(line) as {
      result?: { tools?: { name: string }[] };
      schemaFindings?: { toolName: string; findings: InspectorFinding[] }[];
    };
    const findings = (out.schemaFindings ?? []).flatMap(({ toolName, findings }) =>
      findings.map((f) => `${toolName}: ${f.schema}.${f.path}: ${f.rule} (${f.severity})`),
    );
    return { exitCode, toolNames: (out.result?.tools ?? []).map((t) => t.name), findings, stderr };
  } finally {
    await cleanup();
  }
}
