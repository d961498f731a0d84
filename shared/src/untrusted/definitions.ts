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
 * with a destination and an optional title; a title may run over the following lines (up to its
 * closing quote or parenthesis, before any blank line) outside block quotes. Linear time: one pass
 * over the lines (a title's lines are read once more at most), one over the bracketed labels.
 */
import type { SanitizeFindings } from './findings.js';

const MARKER = '⟦hidden Markdown comment removed⟧';
/** Block-quote markers before a line's content. */
const QUOTES = String.raw`(?: {0,3}>[ \t]?)*`;
/** Indent, `[label]:` (label captured), the destination (`<…>` or no spaces). */
const LABEL_AND_DESTINATION = String.raw` {0,3}\[([^[\]\n]{0,999})\]:[ \t]*(?:<[^<>\n]*>|[^\s<][^\s]*)`;
/** Quote markers (captured), label and destination, optional title, nothing after. */
const DEFINITION = new RegExp(
  String.raw`^(${QUOTES})${LABEL_AND_DESTINATION}(?:[ \t]+(?:"[^"\n]*"|'[^'\n]*'|\([^()\n]*\)))?[ \t]*$`,
);
/** A definition whose title opens on its line (opener captured) and closes on a later one (outside block quotes). */
const OPEN_TITLE = new RegExp(
  String.raw`^${LABEL_AND_DESTINATION}[ \t]+(?:(")[^"\n]*|(')[^'\n]*|(\()[^()\n]*)$`,
);
/** A title's later lines, by its opening character: `more` continues it, `end` closes it. */
const TITLE_LINES: Record<string, { more: RegExp; end: RegExp }> = {
  '"': { more: /^[^"]*$/, end: /^[^"]*"[ \t]*$/ },
  "'": { more: /^[^']*$/, end: /^[^']*'[ \t]*$/ },
  '(': { more: /^[^()]*$/, end: /^[^()]*\)[ \t]*$/ },
};
const QUOTE_PREFIX = new RegExp(`^${QUOTES}`);
const FENCE = new RegExp(String.raw`^${QUOTES} {0,3}(\`{3,}|~{3,})`);
/** An ATX heading ends its block on its line, so a definition may follow it directly. */
const HEADING = new RegExp(String.raw`^${QUOTES} {0,3}#{1,6}(?:[ \t]|$)`);
const BRACKETED = /\[([^[\]\n]{1,999})\]/g;

/** CommonMark label matching: case-folded, inner whitespace collapsed, trimmed. */
const normalizeLabel = (label: string) => label.trim().replace(/\s+/g, ' ').toLowerCase();

/**
 * The last line of a title that opened with `quote` on line `first` (OPEN_TITLE), or undefined when a
 * blank line, the end of the text or a line that breaks it comes first (then there is no definition).
 */
function titleEnd(lines: string[], first: number, quote: string): number | undefined {
  const title = TITLE_LINES[quote];
  if (!title) return undefined;
  for (let j = first + 1; j < lines.length; j++) {
    const line = (lines[j] as string).replace(/\r$/, '');
    if (line.trim() === '') return undefined;
    if (title.end.test(line)) return j;
    if (!title.more.test(line)) return undefined;
  }
  return undefined;
}

/** `text` with its unused link reference definitions replaced by a marker, counted in `f`. */
export function removeHiddenDefinitions(text: string, f: SanitizeFindings): string {
  if (!text.includes(']:')) return text;
  const lines = text.split('\n');
  const definitions = new Map<number, { label: string; end: number }>(); // first line → label, last line
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
    let label: string = match ? normalizeLabel(match[2] as string) : '';
    let end = i;
    if (match && label !== '') definitions.set(i, { label, end });
    else if (previousBlankOrDefinition) {
      const open = OPEN_TITLE.exec(line);
      const last = open ? titleEnd(lines, i, open[2] ?? open[3] ?? open[4] ?? '') : undefined;
      label = open && last !== undefined ? normalizeLabel(open[1] as string) : '';
      if (label !== '' && last !== undefined) {
        end = last;
        definitions.set(i, { label, end });
      }
    }
    previousBlankOrDefinition =
      label !== '' ||
      HEADING.test(line) ||
      line.slice(QUOTE_PREFIX.exec(line)?.[0].length ?? 0).trim() === '';
    i = end;
  }
  if (definitions.size === 0) return text;
  // Labels anywhere else in brackets count as used (also in code: keeping a definition is the safe error).
  const used = new Set<string>();
  for (let i = 0; i < lines.length; i++) {
    const definition = definitions.get(i);
    if (definition) {
      i = definition.end;
      continue;
    }
    for (const m of (lines[i] as string).matchAll(BRACKETED)) used.add(normalizeLabel(m[1] as string));
  }
  let removed = 0;
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const definition = definitions.get(i);
    if (definition === undefined || used.has(definition.label)) {
      out.push(...lines.slice(i, (definition?.end ?? i) + 1));
      i = definition?.end ?? i;
      continue;
    }
    removed++;
    const prefix = QUOTE_PREFIX.exec(line)?.[0] ?? '';
    // A blank line after the marker keeps a following definition a definition (a paragraph would absorb it).
    const next = lines[definition.end + 1];
    out.push(
      next !== undefined && next.trim() !== ''
        ? `${prefix}${MARKER}\n${prefix.trimEnd()}`
        : `${prefix}${MARKER}`,
    );
    i = definition.end;
  }
  if (removed === 0) return text;
  f.markdownComments += removed;
  return out.join('\n');
}
