/**
 * Markdown link targets: inline links and images and reference definitions whose scheme is not
 * http(s)/mailto are replaced by a visible marker; the link text stays. An autolink with such a
 * scheme keeps its text and loses its `<` (`&lt;std::string>`, `&lt;javascript:x>`): plain text
 * for every reader, and code such as `vector<std::string>` stays readable. The
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

/** Neutralises unsafe Markdown link targets in `text`, counting them in `f`. */
export function neutralizeMarkdownLinks(text: string, f: SanitizeFindings): string {
  if (!text.includes(']') && !text.includes('<')) return text;
  let out = text.replace(MD_LINK, (link, bang: string, label: string, target: string) => {
    if (isSafeLinkTarget(target)) return link;
    f.unsafeLinks++;
    return `${label} ⟦unsafe ${bang ? 'image' : 'link'} removed (${shownScheme(target)})⟧`;
  });
  out = out.replace(AUTOLINK, (link, target: string) => {
    // Only what reads as `scheme:` once invisible characters are gone; tags stay for the HTML pass.
    const scheme = linkScheme(target);
    if (scheme === undefined || !/^[a-z][a-z0-9+.-]{1,31}$/.test(scheme) || isSafeLinkTarget(target))
      return link;
    // Escaping its `<` leaves text under every reading and keeps what it says (`&lt;std::string>`).
    f.unsafeLinks++;
    return `&lt;${target}>`;
  });
  return sweepDestinations(out, f);
}
