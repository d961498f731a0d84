/**
 * Markdown link targets: inline links and images, reference definitions and autolinks whose
 * scheme is not http(s)/mailto are replaced by a visible marker; the link text stays. The
 * well-formed cases get a readable `text ⟦unsafe link removed (javascript:)⟧`; then every
 * remaining destination position (after `](` or `]:`) is checked again, whatever surrounds it
 * (nested brackets or parentheses, line breaks in the text), so no shape the first patterns do
 * not know keeps a live target. Runs before the HTML pass, which has the last word on markup.
 */
import type { SanitizeFindings } from './findings.js';
import { isSafeLinkTarget, linkScheme, shownScheme } from './links.js';

// [text](dest "title") and ![alt](dest): dest may hold one level of balanced parentheses.
const MD_LINK =
  /(!?)\[([^\]\n]*)\]\(\s*(<[^>\n]*>|(?:[^()\s]|\([^()\s]*\))+)((?:\s+(?:"[^"\n]*"|'[^'\n]*'|\([^)\n]*\)))?\s*)\)/g;
const MD_REFERENCE = /^( {0,3}\[[^\]\n]+\]:\s*)(<[^>\n]*>|\S+)/gm;
// <scheme:…> (CommonMark autolink), also when invisible characters inside the scheme stop it from
// being one yet.
const AUTOLINK = /<([^\s<>]+)>/g;
const DESTINATION_START = /\]\(|\]:/g;

/** Where the destination that starts at `from` ends (CommonMark rules, generously). */
function destinationEnd(text: string, from: number): number {
  if (text[from] === '<') {
    const close = text.slice(from).search(/[>\n]/);
    return close < 0 ? text.length : from + close + (text[from + close] === '>' ? 1 : 0);
  }
  let depth = 0;
  let i = from;
  for (; i < text.length; i++) {
    const ch = text[i] ?? '';
    if (/\s/.test(ch)) break;
    if (ch === '\\') i++;
    else if (ch === '(') depth++;
    else if (ch === ')') {
      if (depth === 0) break;
      depth--;
    }
  }
  return Math.min(i, text.length);
}

/** Replaces every unsafe destination after `](` or `]:` that the patterns above left. */
function sweepDestinations(text: string, f: SanitizeFindings): string {
  let out = '';
  let copied = 0;
  for (const match of text.matchAll(DESTINATION_START)) {
    const opener = (match.index ?? 0) + 2;
    if (opener < copied) continue;
    // Spaces or tabs and at most one line break may come before the destination.
    const gap = /^[ \t]*(?:\r?\n[ \t]*)?/.exec(text.slice(opener, opener + 256))?.[0].length ?? 0;
    const start = opener + gap;
    const end = destinationEnd(text, start);
    const target = text.slice(start, end);
    if (!target || isSafeLinkTarget(target)) continue;
    f.unsafeLinks++;
    out += `${text.slice(copied, start)}⟦unsafe link removed (${shownScheme(target)})⟧`;
    copied = end;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/** Neutralises unsafe Markdown link targets in `text`, counting them in `f`. */
export function neutralizeMarkdownLinks(text: string, f: SanitizeFindings): string {
  if (!text.includes(']') && !text.includes('<')) return text;
  let out = text.replace(MD_LINK, (link, bang: string, label: string, target: string) => {
    if (isSafeLinkTarget(target)) return link;
    f.unsafeLinks++;
    return `${label} ⟦unsafe ${bang ? 'image' : 'link'} removed (${shownScheme(target)})⟧`;
  });
  out = out.replace(MD_REFERENCE, (definition, prefix: string, target: string) => {
    if (isSafeLinkTarget(target)) return definition;
    f.unsafeLinks++;
    return `${prefix}⟦unsafe link removed (${shownScheme(target)})⟧`;
  });
  out = out.replace(AUTOLINK, (link, target: string) => {
    // Only what reads as `scheme:` once invisible characters are gone; tags stay for the HTML pass.
    const scheme = linkScheme(target);
    if (scheme === undefined || !/^[a-z][a-z0-9+.-]{1,31}$/.test(scheme) || isSafeLinkTarget(target))
      return link;
    f.unsafeLinks++;
    return `⟦unsafe link removed (${shownScheme(target)})⟧`;
  });
  return sweepDestinations(out, f);
}
