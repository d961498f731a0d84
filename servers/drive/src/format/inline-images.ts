/**
 * Pictures pasted into a Google Doc come back in its Markdown export inline, as `data:` URIs
 * (`![][image1]` … `[image1]: <data:image/png;base64,…>`, or `![alt](data:…)`): hundreds of KB of
 * base64 per picture that would fill the read budget and say nothing to a model. Each is replaced
 * by a short placeholder naming it (the reference label or alt text), its type and its decoded
 * size: `[image1]: <image image/png, 48,213 bytes: not shown>`.
 */

/** A data URI (no capture groups): `data:`, a type, parameters, optionally `;base64`, `,` and the payload. */
const URI = String.raw`(?<![\w-])data:(?:[a-z]+\/[a-z0-9.+-]+)?(?:;[a-z0-9-]+=[^;,\s>)]*)*(?:;base64)?,[A-Za-z0-9+/=%]*`;
/** `[label]: <data:…>` — the reference definitions Drive's Markdown export puts at the end. */
const REFERENCE = new RegExp(String.raw`^\[([^\]\n]{1,200})\]:[ \t]*<?(${URI})>?`, 'gim');
/** `![alt](data:…)`. */
const INLINE = new RegExp(String.raw`!\[([^\]\n]{0,200})\]\(<?(${URI})>?\)`, 'gi');
/** Any other base64 data URI. */
const BARE = /(?<![\w-])data:[a-z]+\/[a-z0-9.+-]+(?:;[a-z0-9-]+=[^;,\s>)]*)*;base64,[A-Za-z0-9+/=]+/gi;

/** "image image/png, 48,213 bytes: not shown" for data URI `uri`. */
function placeholder(uri: string): string {
  const comma = uri.indexOf(',');
  const head = uri.slice(5, comma < 0 ? undefined : comma);
  const payload = comma < 0 ? '' : uri.slice(comma + 1).replace(/\s+/g, '');
  const type = /^[a-z]+\/[a-z0-9.+-]+/i.exec(head)?.[0] ?? 'text/plain';
  const pad = payload.endsWith('==') ? 2 : payload.endsWith('=') ? 1 : 0;
  const size = /;base64$/i.test(head)
    ? Math.max(0, Math.floor((payload.length * 3) / 4) - pad)
    : Buffer.byteLength(payload);
  return `${type.startsWith('image/') ? 'image' : 'inline data'} ${type}, ${size.toLocaleString('en-US')} bytes: not shown`;
}

/** `markdown` with every inline data: URI replaced by a placeholder (module comment). */
export function withoutInlineImages(markdown: Buffer): Buffer {
  // Only exports that hold one pay for the decode and the rewrite.
  if (!markdown.includes('data:')) return markdown;
  const out = markdown
    .toString('utf8')
    .replace(REFERENCE, (_all, label: string, uri: string) => `[${label}]: <${label}: ${placeholder(uri)}>`)
    .replace(
      INLINE,
      (_all, alt: string, uri: string) => `![${alt}](${alt ? `${alt}: ` : ''}${placeholder(uri)})`,
    )
    .replace(BARE, (uri: string) => `<${placeholder(uri)}>`);
  return Buffer.from(out, 'utf8');
}
