import type { CallToolResult, McpServer } from '@modelcontextprotocol/server';
import type * as z from 'zod';
import type { Progress } from './progress.js';

/**
 * All four MCP tool annotation hints (spec 2025-11-25, "Tool Annotations"), required so that every
 * tool states each one deliberately instead of inheriting the spec's defaults by omission.
 */
export interface ToolHints {
  /** The tool does not modify its environment. */
  readOnlyHint: boolean;
  /** Updates may be destructive (meaningful only when readOnlyHint is false). */
  destructiveHint: boolean;
  /** Repeating the call with the same arguments has no additional effect. */
  idempotentHint: boolean;
  /** The tool interacts with an open world of external entities (web, SaaS). */
  openWorldHint: boolean;
}

/** What a handler receives besides its validated arguments. */
export interface ToolContext {
  /**
   * Aborted when the client cancels the request or the server shuts down. Made on first access (a getter):
   * a handler that can answer without waiting on anything may leave it unread and save its cost.
   */
  readonly signal: AbortSignal;
  /** The MCP server instance serving this connection (for notifications). */
  server: McpServer;
  /** Set when the request asked for progress (`_meta.progressToken`): report long work through it. */
  readonly progress?: Progress;
}

/** The result a handler returns: MCP's CallToolResult (content, structuredContent, isError). */
export type ToolResult = CallToolResult;

/**
 * A tool as data plus one handler. `tools/list`, read-only filtering, toolset selection, README
 * tables and annotation tests are all derived from these definitions.
 */
export interface ToolDefinition<
  I extends z.ZodObject = z.ZodObject,
  O extends z.ZodObject = z.ZodObject,
  S extends string = string,
> {
  name: string;
  title: string;
  /** Written for the model: what it does, when to use it, its limits. */
  description: string;
  /**
   * Toolset the tool belongs to (servers that declare toolsets, see `defineToolsets`; `S` is their
   * name union where the server types its tools with it); omitted in servers without toolsets.
   */
  toolset?: S;
  /** Strict zod object: unknown keys are refused with an error naming them. */
  inputSchema: I;
  /** Shape of `structuredContent` when the result has real structure. */
  outputSchema?: O;
  annotations: ToolHints;
  /**
   * The question put to the user before the handler runs (what will happen, to what), or undefined
   * when these arguments need none: asked through elicitation where the client can (see confirm.ts).
   */
  confirm?: (args: z.infer<I>) => string | undefined | Promise<string | undefined>;
  /**
   * What a call is doing while it waits on one long step (a download, an export, a conversion), e.g.
   * "reading the file": when the request carried a progressToken, the bootstrap reports
   * "<heartbeat>, N s" each second until the handler answers (see progress.ts, withHeartbeat). For
   * work with its own counts the handler reports through `ctx.progress` instead (not both).
   */
  heartbeat?: string;
  handler: (args: z.infer<I>, ctx: ToolContext) => Promise<ToolResult>;
}

/**
 * Identity helper that checks a definition's types; returns it unchanged. The toolset name is kept
 * as its literal type, so a list typed `ToolDefinition<…, …, MyToolsets>[]` refuses a misspelt one.
 */
export function defineTool<
  I extends z.ZodObject,
  O extends z.ZodObject = z.ZodObject,
  S extends string = string,
>(definition: ToolDefinition<I, O, S>): ToolDefinition<I, O, S> {
  return definition;
}

/** A plain-text result. */
export function textResult(text: string): ToolResult {
  return { content: [{ type: 'text', text }] };
}

/**
 * A structured result: `structuredContent` for clients that read it (validated by the client
 * against the tool's outputSchema) plus the same data rendered as `text` for clients that read only
 * text (spec 2025-11-25, "Structured Content": SHOULD also return the serialized content).
 */
export function structuredResult(structuredContent: Record<string, unknown>, text: string): ToolResult {
  return { content: [{ type: 'text', text }], structuredContent };
}

/** An error result with a message written for the model. */
export function errorResult(text: string): ToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}
