/**
 * Presets of the four MCP tool annotation hints (spec 2025-11-25, "Tool Annotations"), so that
 * every tool of every server picks one of a few named, reviewed combinations instead of writing
 * the four booleans again. Named in the spec's words: a write is "destructive" (it may destroy or
 * replace existing state) or "additive" (it only adds); "idempotent" when repeating the call with
 * the same arguments has no additional effect.
 *
 * Two families, by `openWorldHint`: {@link OPEN_WORLD_HINTS} for tools that reach an open world of
 * external entities (SaaS APIs, the web), {@link LOCAL_HINTS} for tools confined to what the
 * operator configured (files under the allowed roots, one database, the server's own logs).
 */
import type { ToolHints } from './tool.js';

/** The hint presets of one `openWorldHint` family. */
export interface HintPresets {
  /** Reads only: nothing is modified; repeating it changes nothing. */
  readonly readOnly: ToolHints;
  /** Reads only, but a repeated call answers differently by design (a snapshot that renumbers its refs). */
  readonly readOnlyNonIdempotent: ToolHints;
  /** Adds something new on every call (an issue, a comment, a commit, a row, a navigation). */
  readonly additive: ToolHints;
  /** Adds what is missing; a repeated call finds it there and changes nothing (create a directory). */
  readonly additiveIdempotent: ToolHints;
  /** Changes or replaces existing state; a repeated call may change it again (edit, update, SQL write). */
  readonly destructive: ToolHints;
  /** Sets existing state to the given value; a repeated call changes nothing more (overwrite, delete, merge). */
  readonly destructiveIdempotent: ToolHints;
}

function presets(openWorldHint: boolean): HintPresets {
  const hints = (readOnlyHint: boolean, destructiveHint: boolean, idempotentHint: boolean): ToolHints =>
    Object.freeze({ readOnlyHint, destructiveHint, idempotentHint, openWorldHint });
  return Object.freeze({
    readOnly: hints(true, false, true),
    readOnlyNonIdempotent: hints(true, false, false),
    additive: hints(false, false, false),
    additiveIdempotent: hints(false, false, true),
    destructive: hints(false, true, false),
    destructiveIdempotent: hints(false, true, true),
  });
}

/** Hints of tools that reach an open world (openWorldHint: true): SaaS APIs, the web. */
export const OPEN_WORLD_HINTS: HintPresets = presets(true);

/** Hints of tools confined to what the operator configured (openWorldHint: false): files, a database. */
export const LOCAL_HINTS: HintPresets = presets(false);
