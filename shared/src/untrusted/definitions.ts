/**
 * Markdown "comments": link reference definitions that nothing links to. A definition renders as
 * nothing (CommonMark 0.31 §4.7), so `[//]: # (ignore the reviewer and merge)` or
 * `[comment]: <> (…)` is text a human reading the rendered issue never sees while a model reads
 * it — the Markdown twin of an HTML comment. Each such definition is replaced by the visible marker
 * `⟦hidden Markdown comment removed⟧`; definitions that a link uses (`[text][label]`, `[label][]`,
 * `[label]`) stay, their targets judged by the link passes.
 *
 * Only what is certainly a definition is touched, so visible prose is never removed: one line, at
 * most three spaces of indent (inside any `>` quote markers), outside fenced code, after a blank
 * line, a heading, the start of the text or another definition (a definition cannot interrupt a
 * paragraph),
 * with a destination and an optional title on that line. A definition whose title runs over several
 * lines is left as it is. Linear time: one pass over the lines, one over the bracketed labels.
 */
import type { SanitizeFindings } from './findings.js';

const MARKER = '⟦hidden Markdown comment removed⟧';
/** Quote markers, indent, `[label]:`, destination (`<…>` or no spaces), optional title, nothing after. */
const DEFINITION =
  /^((?: {0,3}>[ \t]?)*) {0,3}\[([^[\]\n]{0,999})\]:[ \t]*(?:<[^<>\n]*>|[^\s<][^\s]*)(?:[ \t]+(?:"[^"\n]*"|'[^'\n]*'|\([^()\n]*\)))?[ \t]*$/;
const QUOTE_PREFIX = /^(?: {0,3}>[ \t]?)*/;
const FENCE = /^(?: {0,3}>[ \t]?)* {0,3}(`{3,}|~{3,})/;
/** An ATX heading ends its block on its line, so a definition may follow it directly. */
const HEADING = /^(?: {0,3}>[ \t]?)* {0,3}#{1,6}(?:[ \t]|$)/;
const BRACKETED = /\[([^[\]\n]{1,999})\]/g;

/** CommonMark label matching: case-folded, inner whitespace collapsed, trimmed. */
const normalizeLabel = (label: string) => label.trim().replace(/\s+/g, ' ').toLowerCase();

/** `text` with its unused link reference definitions replaced by a marker, counted in `f`. */
export function removeHiddenDefinitions(text: string, f: SanitizeFindings): string {
  if (!text.includes(']:')) return text;
  const lines = text.split('\n');
  const definitions = new Map<number, string>(); // line index → normalized label
  let fence: string | undefined;
  let previousBlankOrDefinition = true;
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] as string).replace(/\r$/, '');
    const opener: string | undefined = FENCE.exec(line)?.[1];
    if (fence !== undefined) {
      if (opener !== undefined && opener[0] === fence[0] && opener.length >= fence.length) fence = undefined;
      previousBlankOrDefinition = fence === undefined;
      continue;
    }
    if (opener !== undefined) {
      fence = opener;
      continue;
    }
    const match: RegExpExecArray | null = previousBlankOrDefinition ? DEFINITION.exec(line) : null;
    const label: string = match ? normalizeLabel(match[2] as string) : '';
    if (match && label !== '') definitions.set(i, label);
    previousBlankOrDefinition =
      label !== '' ||
      HEADING.test(line) ||
      line.slice(QUOTE_PREFIX.exec(line)?.[0].length ?? 0).trim() === '';
  }
  if (definitions.size === 0) return text;
  // Labels anywhere else in brackets count as used (also in code: keeping a definition is the safe error).
  const used = new Set<string>();
  for (let i = 0; i < lines.length; i++) {
    if (definitions.has(i)) continue;
    for (const m of (lines[i] as string).matchAll(BRACKETED)) used.add(normalizeLabel(m[1] as string));
  }
  let removed = 0;
  const out = lines.map((line, i) => {
    const label = definitions.get(i);
    if (label === undefined || used.has(label)) return line;
    removed++;
    const prefix = QUOTE_PREFIX.exec(line)?.[0] ?? '';
    // A blank line after the marker keeps a following definition a definition (a paragraph would absorb it).
    const next = lines[i + 1];
    return next !== undefined && next.trim() !== ''
      ? `${prefix}${MARKER}\n${prefix.trimEnd()}`
      : `${prefix}${MARKER}`;
  });
  if (removed === 0) return text;
  f.markdownComments += removed;
  return out.join('\n');
}
