/**
 * The scope a parse tree is checked in: what guard.ts (the call's SQL) and bodies.ts (function
 * bodies and the strings in them) both pass down. Its own module so that neither imports the other
 * for it.
 */
import type { ParseResult, Parser } from './parser.js';
import type { Rule } from './reach-rules.js';

/** Where a tree came from, for rules that need more than the node. */
export interface Scope {
  parser: Parser;
  /** 0 for the call's SQL; 1 + the depth of the enclosing body inside function bodies and their strings. */
  depth: number;
  /** Strings in bodies parsed so far in this call (bounded: see bodies.ts). */
  strings: { parsed: number };
  /** Checks a parse result found inside a body (guard.ts `checkTree`). */
  check(parsed: ParseResult, text: string, scope: Scope): void;
  /** The first read-call rule met in the call's own tree (depth 0; bodies are not run by a read). */
  read?: { rule?: Rule };
}
