/**
 * Markdown link targets: inline links and images and reference definitions whose scheme is not
 * http(s)/mailto are replaced by a visible marker; the link text stays. An autolink with such a
 * scheme keeps its text and loses its `<` (`&lt;std::string>`, `&lt;javascript:x>`): plain text
 * for every reader, and code such as `vector<std::string>` stays readable; an earlier `<` that
 * this escape joins to it into a longer autolink (`<javascript:x<ab:y>`) is judged and escaped
 * the same way. The
 * well-formed cases get a readable `text ⟦unsafe link removed (javascript:)⟧`; then every other
 * place a CommonMark renderer could read as a destination (`untrusted/destinations.ts`: nested
 * brackets, line breaks in the text, definitions inside block quotes and lists) is checked again,
 * so no shape the first pattern does not know keeps a live target. Prose that only looks like a
 * destination (`see ](C:\x)`, `[today]:10:30` in a sentence) is left alone. Linear time.
 */
import { unsafeDestinations } from './destinations.js';
import type { SanitizeFindings } from './findings.js';
import { isSafeLinkTarget, linkScheme, shownScheme } from './links.js';

// [text](dest "title") and ![alt](dest): dest may hold one level of balanced parentheses. The text
// holds no bracket and the `<…>` form no `<`, so no two attempts read the same characters twice.
const MD_LINK =
  /(!?)\[([^[\]\n]{0,999})\]\([ \t]*(?:\r?\n[ \t]*)?(<[^<>\n]*>|(?:[^()\s]|\([^()\s]*\))+)((?:\s+(?:"[^"\n]*"|'[^'\n]*'|\([^)\n]*\)))?\s*)\)/g;
// <scheme:…> (CommonMark autolink: no ASCII space, control, `<` or `>` inside; other spaces such as
// U+00A0 do not end it), also when invisible characters inside the scheme stop it from being one yet.
// biome-ignore lint/suspicious/noControlCharactersInRegex: an autolink ends at a control character
const AUTOLINK = /<([^\x00-\x20\x7F<>]+)>/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: as above
const AUTOLINK_CHARACTER = /[^\x00-\x20\x7F<>]/;

/** Replaces every unsafe destination the pattern above left (`untrusted/destinations.ts`). */
function sweepDestinations(text: string, f: SanitizeFindings): string {
  let out = '';
  let copied = 0;
  for (const { start, end, schemeText } of unsafeDestinations(text)) {
    f.unsafeLinks++;
    out += `${text.slice(copied, start)}⟦unsafe link removed (${shownScheme(schemeText)})⟧`;
    copied = end;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/**
 * True when `<target>` reads as an autolink whose scheme is not safe: only what reads as `scheme:`
 * once invisible characters are gone (tags stay for the HTML pass). `target` is judged inside its
 * `<…>`, so one that begins with `&lt;` (`<&lt;javascript:x>`, what escaping `<<javascript:x>>`
 * leaves) has a `<` in its scheme and is no autolink.
 */
function isUnsafeAutolink(target: string): boolean {
  const scheme = linkScheme(`<${target}>`);
  return scheme !== undefined && /^[a-z][a-z0-9+.-]{1,31}$/.test(scheme) && !isSafeLinkTarget(target);
}

/**
 * `text` with the `<` of every unsafe autolink written `&lt;` (text under every reading, and
 * `vector<std::string>` stays readable), counted in `f`. `&lt;` may stand inside an autolink, so
 * an earlier `<` whose text runs up to an escaped one now opens a longer autolink
 * (`<javascript:x<ab:y>` becomes `<javascript:x&lt;ab:y>`): each escape judges the `<` before it
 * the same way. Linear: each walk back stops at the first character an autolink cannot hold,
 * before the autolink matched previously.
 */
function escapeUnsafeAutolinks(text: string, f: SanitizeFindings): string {
  const escaped: number[] = [];
  for (const m of text.matchAll(AUTOLINK)) {
    let at = m.index;
    // Walking back, the text up to the escaped `<` is judged: a longer autolink's scheme ends there.
    let target = m[1] ?? '';
    while (isUnsafeAutolink(target)) {
      f.unsafeLinks++;
      escaped.push(at);
      let before = at - 1;
      while (before >= 0 && AUTOLINK_CHARACTER.test(text[before] ?? '')) before--;
      if (before < 0 || text[before] !== '<') break;
      target = `${text.slice(before + 1, at)}&lt;`;
      at = before;
    }
  }
  if (escaped.length === 0) return text;
  escaped.sort((a, b) => a - b);
  let out = '';
  let copied = 0;
  for (const at of escaped) {
    out += `${text.slice(copied, at)}&lt;`;
    copied = at + 1;
  }
  return out + text.slice(copied);
}

/** Neutralises unsafe Markdown link targets in `text`, counting them in `f`. */
export function neutralizeMarkdownLinks(text: string, f: SanitizeFindings): string {
  if (!text.includes(']') && !text.includes('<')) return text;
  let out = text.replace(MD_LINK, (link, bang: string, label: string, target: string) => {
    if (isSafeLinkTarget(target)) return link;
    f.unsafeLinks++;
    return `${label} ⟦unsafe ${bang ? 'image' : 'link'} removed (${shownScheme(target)})⟧`;
  });
  out = escapeUnsafeAutolinks(out, f);
  return sweepDestinations(out, f);
}
