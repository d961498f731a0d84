/**
 * Drive's `q` search language (developers.google.com/drive/api/guides/ref-search-terms), built so
 * that the model's text is only ever a string literal: `\` and `'` escaped, the literal quoted,
 * the operators ours. An empty query is refused before any request (case DR-03).
 */
import { ToolError } from '@refmcp/shared/server';

/** `text` as a quoted `q` literal: `O'Reilly` → `'O\'Reilly'`, `a\b` → `'a\\b'`. */
export function literal(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** The model's search text, trimmed; ToolError naming `argument` when empty or holding control characters or lone surrogates. */
export function searchText(value: string, argument = 'query'): string {
  const text = value.trim();
  if (!text) throw new ToolError(`${argument}: empty; give words to look for in file names and text`);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u001f\u007f]/.test(text)) throw new ToolError(`${argument}: contains a control character`);
  // A lone surrogate would be sent as U+FFFD: the query Drive ran would not be the one given.
  if (!text.isWellFormed()) throw new ToolError(`${argument}: contains a lone UTF-16 surrogate (not text)`);
  return text;
}

/** Options of {@link searchQuery}. */
export interface SearchTerms {
  /** Look in names only (default: names and full text). */
  namesOnly?: boolean;
  /** Restrict to these MIME types. */
  mimeType?: string;
  /** Direct children of this folder. */
  parent?: string;
}

/** `q` for a search for `text` (non-trashed files whose name or text contains it). */
export function searchQuery(text: string, terms: SearchTerms = {}): string {
  const lit = literal(text);
  const parts = [
    terms.namesOnly ? `name contains ${lit}` : `(name contains ${lit} or fullText contains ${lit})`,
  ];
  if (terms.mimeType) parts.push(`mimeType = ${literal(terms.mimeType)}`);
  if (terms.parent) parts.push(`${literal(terms.parent)} in parents`);
  parts.push('trashed = false');
  return parts.join(' and ');
}

/** `q` for the non-trashed children of `folderId`. */
export function childrenQuery(folderId: string): string {
  return `${literal(folderId)} in parents and trashed = false`;
}
