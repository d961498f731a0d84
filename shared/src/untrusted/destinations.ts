/**
 * Markdown link destinations (CommonMark 0.31 §6.3 "Links", §4.7 "Link reference definitions"):
 * where each one that a renderer could read starts and ends, and whether its scheme may stay — in
 * one left-to-right pass, linear in the text, whatever the input (no destination is scanned twice
 * and every look-ahead is answered from a cursor that only moves forward).
 *
 * Which places are destinations (a superset of what CommonMark renderers read, never less):
 * - after `](` or `](` plus spaces/tabs and at most one line break — inline links and images —
 *   when a `[` comes earlier in the same paragraph (no blank line between). A `](` without any
 *   `[` before it (`see ](C:\x)`) is prose: no link text can precede it.
 * - after `[label]:` at the start of a line (after up to any indentation and block-quote or list
 *   markers), the label without unescaped brackets, of any length (CommonMark stops at 999
 *   characters, marked does not) and holding a visible character (a backslash is one), when the
 *   destination is followed by the end of the line or by a title. `Meeting [today]:10:30` and
 *   `map[k]:std::string` are prose.
 * A plain destination ends at a space or control character (or, inline, at its first unbalanced
 * `)`, as CommonMark and marked read it); a `<…>` destination at its first `>` or line break.
 */
import { decodeHTML } from 'entities';
import { CHARACTER_REFERENCE, isSafeLinkTarget } from './links.js';

export interface Destination {
  start: number;
  end: number;
  /** The destination text up to and including the character that ends its scheme. */
  schemeText: string;
}

/**
 * Characters that end a scheme (`:`) or prove there is none (`/`, `?`, `#`) once character
 * references are decoded and compatibility forms folded — the same reading as `linkScheme`:
 * their ASCII forms, their NFKC look-alikes (U+2047–2049, U+2100/2101, U+2105/2106, U+2A74,
 * U+FE13, U+FE16, U+FE55/FE56, U+FE5F, U+FF03, U+FF0F, U+FF1A, U+FF1F) and character references
 * (numeric ones with all their digits: browsers accept any number of leading zeros).
 */
const SCHEME_STOP = new RegExp(
  `[:/?#\\u2047-\\u2049\\u2100\\u2101\\u2105\\u2106\\u2A74\\uFE13\\uFE16\\uFE55\\uFE56\\uFE5F\\uFF03\\uFF0F\\uFF1A\\uFF1F]|${CHARACTER_REFERENCE.source}`,
  'g',
);
// biome-ignore lint/suspicious/noControlCharactersInRegex: a destination ends at a control character
const PLAIN_END = /[\u0000-\u0020\u007F]/g;
const ANGLE_END = /[>\n\r]/g;
const GAP = /[ \t]*(?:(?:\r\n?|\n)[ \t]*)?/y;
const CONTAINER_PREFIX = /(?:[ \t]*(?:>|[-+*](?=[ \t\r\n]|$)|\d{1,9}[.)](?=[ \t\r\n]|$)))*[ \t]*/y;
const ASCII_PUNCTUATION = /[!-/:-@[-`{-~]/;

type Found = { index: number; length: number } | undefined;

/**
 * The first match of `pattern` (global) at or after a position that `accept` takes. Each search
 * resumes where the last answer lies, so rising positions cost linear time in all.
 */
function cursor(text: string, pattern: RegExp, accept: (match: string) => boolean = () => true) {
  const re = new RegExp(pattern.source, pattern.flags);
  let from = Number.POSITIVE_INFINITY;
  let found: Found;
  return (at: number): Found => {
    if (at >= from && (found === undefined || found.index >= at)) return found;
    from = at;
    re.lastIndex = at;
    found = undefined;
    for (let m = re.exec(text); m; m = re.exec(text))
      if (accept(m[0])) {
        found = { index: m.index, length: m[0].length };
        break;
      }
    return found;
  };
}

/** What a scheme stop reads as once decoded: ':' (a scheme ends here) or '/' (no scheme). */
function stopKind(stop: string): ':' | '/' | undefined {
  const folded = (stop.startsWith('&') ? decodeHTML(stop) : stop).normalize('NFKC');
  const first = /[:/?#]/.exec(folded)?.[0];
  return first === undefined ? undefined : first === ':' ? ':' : '/';
}

/**
 * For each position, where a destination starting there ends at its first unbalanced `)`
 * (backslash-escaped parentheses do not count): the running depth and, for each position, the
 * next position whose depth is lower (a stack, so linear). Built only when a destination needs it.
 */
function parenthesisEnds(text: string): (start: number) => number {
  const n = text.length;
  const depth = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) {
    const ch = text[i];
    if (ch === '\\' && i + 1 < n && ASCII_PUNCTUATION.test(text[i + 1] ?? '')) {
      depth[i + 1] = depth[i] ?? 0;
      depth[i + 2] = depth[i] ?? 0;
      i++;
      continue;
    }
    depth[i + 1] = (depth[i] ?? 0) + (ch === '(' ? 1 : ch === ')' ? -1 : 0);
  }
  const lower = new Int32Array(n + 1);
  const stack: number[] = [];
  for (let i = n; i >= 0; i--) {
    while (stack.length > 0 && (depth[stack[stack.length - 1] ?? 0] ?? 0) >= (depth[i] ?? 0)) stack.pop();
    lower[i] = stack.length > 0 ? (stack[stack.length - 1] ?? n + 1) : n + 1;
    stack.push(i);
  }
  // The depth first drops just after the closing parenthesis: the destination ends before it.
  return (start) => Math.min((lower[start] ?? n + 1) - 1, n);
}

/**
 * The destinations in `text` (see the module comment) whose scheme is not safe, in order, not
 * overlapping. Linear in `text.length`.
 */
export function unsafeDestinations(text: string): Destination[] {
  const n = text.length;
  const found: Destination[] = [];
  const nextStop = cursor(text, SCHEME_STOP, (m) => stopKind(m) !== undefined);
  const nextPlainEnd = cursor(text, PLAIN_END);
  const nextAngleEnd = cursor(text, ANGLE_END);
  const nextParenthesis = cursor(text, /[()]/g);
  let parenEnd: ((start: number) => number) | undefined;

  /** The unsafe destination starting at `start`, if it is one. */
  const judge = (start: number, inline: boolean): Destination | undefined => {
    let end: number;
    let stop: Found;
    if (text[start] === '<') {
      const close = nextAngleEnd(start + 1)?.index ?? n;
      end = text[close] === '>' ? close + 1 : close;
      stop = nextStop(start + 1);
      if (stop === undefined || stop.index >= close) return undefined;
    } else {
      end = nextPlainEnd(start)?.index ?? n;
      stop = nextStop(start);
      if (end === start || stop === undefined || stop.index >= end) return undefined;
      const parenthesis = inline ? nextParenthesis(start) : undefined;
      if (parenthesis !== undefined && parenthesis.index < end) {
        parenEnd ??= parenthesisEnds(text);
        end = Math.min(end, parenEnd(start));
        if (stop.index >= end) return undefined;
      }
    }
    // A `/`, `?` or `#` before any `:` makes the target relative: no need to read it.
    const stopText = text.slice(stop.index, stop.index + stop.length);
    if (stopKind(stopText) !== ':') return undefined;
    const schemeText = text.slice(start, stop.index + stop.length);
    return isSafeLinkTarget(schemeText) ? undefined : { start, end, schemeText };
  };

  /** True when what follows a definition's destination lets it be one: end of line or a title. */
  const endsDefinition = (end: number): boolean => {
    let i = end;
    while (text[i] === ' ' || text[i] === '\t') i++;
    const ch = text[i];
    return (
      ch === undefined || ch === '\n' || ch === '\r' || (i > end && (ch === '"' || ch === "'" || ch === '('))
    );
  };

  /**
   * Where `[label]` starting at `open` ends (its `]`), or -1 when it is not a label. There is no
   * length limit: some renderers (marked) take labels longer than CommonMark's 999 characters. A
   * scan stops at the next `[`, so scans from different line starts never overlap (linear).
   */
  const labelEnd = (open: number): number => {
    let visible = false;
    for (let i = open + 1; i < n; i++) {
      const ch = text[i];
      if (ch === ']') return visible ? i : -1;
      if (ch === '[') return -1;
      if (ch === '\\') {
        // A backslash shows, as itself or as the punctuation it escapes (`[\]]`, `[\ ]`).
        visible = true;
        if (ASCII_PUNCTUATION.test(text[i + 1] ?? '')) i++;
      } else if (ch === '\n' || ch === '\r') {
        // A blank line ends the paragraph, and with it the label.
        let j = i + (ch === '\r' && text[i + 1] === '\n' ? 2 : 1);
        while (j < n && (text[j] === ' ' || text[j] === '\t')) j++;
        if (j >= n || text[j] === '\n' || text[j] === '\r') return -1;
      } else if (ch !== ' ' && ch !== '\t') visible = true;
    }
    return -1;
  };

  const gapEnd = (at: number): number => {
    GAP.lastIndex = at;
    return at + (GAP.exec(text)?.[0].length ?? 0);
  };

  let bracketInParagraph = false;
  let lineStart = true;
  for (let i = 0; i < n; i++) {
    if (lineStart) {
      lineStart = false;
      let j = i;
      while (text[j] === ' ' || text[j] === '\t') j++;
      if (j >= n || text[j] === '\n' || text[j] === '\r') bracketInParagraph = false;
      CONTAINER_PREFIX.lastIndex = i;
      const open = i + (CONTAINER_PREFIX.exec(text)?.[0].length ?? 0);
      if (text[open] === '[') {
        const close = labelEnd(open);
        if (close >= 0 && text[close + 1] === ':') {
          const destination = judge(gapEnd(close + 2), false);
          if (destination && endsDefinition(destination.end)) {
            found.push(destination);
            bracketInParagraph = true;
            i = destination.end - 1;
            continue;
          }
        }
      }
    }
    const ch = text[i];
    if (ch === '\n' || (ch === '\r' && text[i + 1] !== '\n')) lineStart = true;
    else if (ch === '[') bracketInParagraph = true;
    else if (ch === ']' && text[i + 1] === '(' && bracketInParagraph) {
      const destination = judge(gapEnd(i + 2), true);
      if (destination) {
        found.push(destination);
        i = destination.end - 1;
      }
    }
  }
  return found;
}
