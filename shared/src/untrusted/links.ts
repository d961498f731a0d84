/**
 * Link targets: the scheme a target would have once a browser or a Markdown renderer reads it,
 * and whether it may stay (relative, http, https, mailto). Fail-safe by construction: a colon
 * before any `/`, `?` or `#` makes whatever precedes it the scheme, even when no URL parser
 * would accept it as one (`java\u200Dscript:`, `java\:script:`), so a target that some later
 * step (an invisible-character strip, a looser parser) could turn into `javascript:` is refused.
 */
import { decodeHTML } from 'entities';

/**
 * A character reference as browsers read it (HTML "character reference state"): a numeric one takes
 * all its digits, leading zeros included (`&#x00000202E;`); the `;` is optional.
 */
export const CHARACTER_REFERENCE = /&(?:#[xX][0-9a-fA-F]+|#[0-9]+|[A-Za-z][A-Za-z0-9]{1,31});?/g;

/** Schemes a link, image or URL attribute may keep. */
const SAFE_SCHEMES = new Set(['http', 'https', 'mailto']);

/**
 * What browsers drop inside URLs or what renders as nothing: whitespace, controls, format
 * characters (ZWJ/ZWNJ, bidi controls, soft hyphen, tag characters) and every other
 * default-ignorable code point (variation selectors, Hangul fillers, CGJ).
 */
const URL_INVISIBLE = /[\p{White_Space}\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}]+/gu;

/**
 * The scheme of a link target, lower-cased, or undefined for a relative target. `target` may be a
 * Markdown destination (`<…>` allowed, character references decoded here) or, with
 * `decoded: true`, an attribute value the HTML tokenizer already decoded. Invisible characters
 * are removed and compatibility forms folded (NFKC) before the scheme is read.
 */
export function linkScheme(target: string, decoded = false): string | undefined {
  const text = decoded ? target : decodeHTML(target);
  const normalized = text
    .replace(URL_INVISIBLE, '')
    .replace(/^<|>$/g, '')
    .replace(/^["']|["']$/g, '')
    .normalize('NFKC')
    .toLowerCase();
  const colon = normalized.indexOf(':');
  if (colon < 0) return undefined;
  const before = normalized.slice(0, colon);
  return /[/?#]/.test(before) ? undefined : before;
}

/** True when a link target is relative, http(s) or mailto (see {@link linkScheme}). */
export function isSafeLinkTarget(target: string, decoded = false): boolean {
  const scheme = linkScheme(target, decoded);
  return scheme === undefined || SAFE_SCHEMES.has(scheme);
}

/** A scheme as shown in a marker: URL-scheme characters only, at most 32. */
export function shownScheme(target: string, decoded = false): string {
  const scheme = linkScheme(target, decoded) ?? '';
  return `${scheme.replace(/[^a-z0-9+.-]/g, '?').slice(0, 32)}:`;
}

/** Attributes holding one URL. A namespaced name (`xlink:href`) is judged by its local part. */
const URL_ATTRIBUTES = new Set([
  'href',
  'src',
  'action',
  'formaction',
  'poster',
  'background',
  'data',
  'codebase',
  'cite',
  'longdesc',
  'lowsrc',
  'dynsrc',
  'ping',
  'manifest',
  'icon',
  'archive',
  'classid',
  'profile',
  // SVG animation of href (`<set attributeName=href to=javascript:…>`).
  'to',
  'from',
  'by',
]);

/**
 * True when the (tokenizer-decoded) value of attribute `name` carries no unsafe URL: single-URL
 * attributes, `srcset`/`imagesrcset` candidates, SVG `values` lists and `content="0;url=…"`.
 */
export function isSafeUrlAttribute(name: string, value: string): boolean {
  const local = name.slice(name.lastIndexOf(':') + 1);
  if (URL_ATTRIBUTES.has(local)) return isSafeLinkTarget(value, true);
  if (local === 'srcset' || local === 'imagesrcset')
    return value.split(/[\s,]+/).every((part) => isSafeLinkTarget(part, true));
  if (local === 'values') return value.split(';').every((part) => isSafeLinkTarget(part, true));
  if (local === 'content') {
    const url = /url\s*=\s*(.*)$/is.exec(value)?.[1];
    return url === undefined || isSafeLinkTarget(url, true);
  }
  return true;
}
