/**
 * HTML inside untrusted text (Markdown with inline HTML, page text): tags, attributes and comments
 * are found by parse5's tokenizer — the WHATWG HTML tokenizer browsers run — so `/` between
 * attributes (`<svg/onload=…>`), entities in values (`&#106;avascript:`), unquoted or oddly quoted
 * values, newlines inside tags and script/style content are read as a browser reads them, not as
 * a regular expression guesses. Each hazard is rewritten in place; everything else is kept byte
 * for byte (Markdown around and between tags is untouched):
 * - `<script>`, `<style>`, `<iframe>` with their content (found as the browser finds their end):
 *   replaced by `⟦script element removed⟧`. One that is never closed (`` `<script>` `` in prose)
 *   would take all the text after it: its `<`, and every `<` inside its tag, are escaped instead
 *   (`&lt;script>`, `&lt;style &lt;img …>`: text, with no tag in what were its attributes).
 * - tags that load, navigate, submit, hide or re-tokenize content (meta, link, base, form, object,
 *   embed, frame, template, noscript, title, textarea, xmp, plaintext, …): the tag is replaced by
 *   `⟦meta tag removed⟧` / `⟦form end tag removed⟧`; their content stays, read as ordinary HTML.
 * - `on*` attributes: removed; URL attributes (href, src, action, formaction, xlink:href,
 *   srcset, meta content `url=`, …) with a scheme other than http/https/mailto: set to
 *   `"#unsafe-link-removed"`; duplicate attributes (browsers keep the first) dropped, also those
 *   that only writing `<` as `&lt;` in a name makes one (`<b <=1 &lt;=2>`); in a rebuilt tag also
 *   those whose name starts with `=` (after a kept attribute without a value, a browser would
 *   read it as that value, running past the tag's `>`) or U+FE0E/U+FE0F (a stray selector once
 *   after the space put before it).
 * - comments `<!-- … -->`: replaced by `⟦hidden HTML comment removed⟧`, but a `<!--` that nothing
 *   closes is escaped (`&lt;!--`) and the text after it kept; comment-like markup
 *   (`<?…>`, `<!…>`, `<![CDATA[…`, `</3 …>`) and doctypes: escaped (`&lt;`), so shown as text.
 * - every tag that stays: `<` and `>` inside it (in a name or a value) written `&lt;`/`&gt;`,
 *   line breaks in values `&#10;`, line breaks between attributes a space. Markdown renderers read
 *   inline and block HTML by CommonMark's rules (§6.6, §4.6), not the browser's: they give up on
 *   `<a @="…">`, `</a title="…">` or a tag cut by a blank line and read what the browser took for
 *   an attribute value as Markdown, where `<img onerror>` inside it would be live. With no `<`
 *   and no line break left inside, a Markdown reader sees the same whole tag or plain text.
 * - a tag left open at the end (`<img src=x onerror=…` without `>`, which would swallow whatever
 *   is appended next): its `<` escaped, its hazards counted, and the text after that `<` tokenized
 *   again (it may hold tags), so no prose is lost. A trailing `<` or `</` is escaped too. So
 *   sanitised texts can be concatenated without forming new markup.
 * Every replacement starts with `⟦` or `&lt;` or is a complete tag, so no edit joins its
 * neighbours into new markup; and the text after an edit is tokenized in the same state a
 * browser reading the output would be in.
 */
import { Token, Tokenizer, TokenizerMode } from 'parse5';
import type { SanitizeFindings } from './findings.js';
import { isSafeUrlAttribute } from './links.js';

/** Elements removed with their content, and the tokenizer state their content is read in. */
const REMOVED_WITH_CONTENT: Record<string, (typeof TokenizerMode)[keyof typeof TokenizerMode]> = {
  script: TokenizerMode.SCRIPT_DATA,
  style: TokenizerMode.RAWTEXT,
  iframe: TokenizerMode.RAWTEXT,
};

/**
 * Tags replaced by a marker (their content, if any, stays and is read as ordinary HTML). Some load
 * or run things, some navigate or submit, some hide their content (template, noscript, noembed,
 * noframes) and some switch browsers to raw text, which renderers that filter tags textually
 * (GFM's tagfilter) would turn back into live markup.
 */
const REPLACED_TAGS = new Set([
  'applet',
  'base',
  'basefont',
  'embed',
  'form',
  'frame',
  'frameset',
  'isindex',
  'keygen',
  'link',
  'meta',
  'noembed',
  'noframes',
  'noscript',
  'object',
  'param',
  'plaintext',
  'portal',
  'template',
  'textarea',
  'title',
  'xmp',
]);

const UNSAFE_URL_VALUE = '"#unsafe-link-removed"';
/** Closes whatever tag state the input ended in (a quoted value, a name, …) for a second look. */
const CLOSE_ANY_TAG = `'">`;

interface Edit {
  start: number;
  end: number;
  text: string;
}

const escapeLt = (s: string) => s.replaceAll('<', '&lt;');
const isEndTag = (token: Token.TagToken) => token.type === Token.TokenType.END_TAG;

/**
 * One attribute's source text as it goes back into a rebuilt tag: `<` and `>` as `&lt;`/`&gt;`
 * and line breaks in its value as `&#10;` (a browser decodes them to the same value), line breaks
 * around `=` as spaces. So no Markdown reader, which splits HTML differently (CommonMark §6.6 and
 * §4.6: stricter attribute names, blocks ended by blank lines or container markers), can find a
 * tag inside it or cut the tag into pieces.
 */
function encodeAttribute(raw: string, nameLength: number): string {
  const name = raw.slice(0, nameLength).replaceAll('<', '&lt;');
  const equals = /^\s*=\s*/.exec(raw.slice(nameLength))?.[0];
  if (equals === undefined) return name;
  const value = raw
    .slice(nameLength + equals.length)
    .replace(/\r\n?|\n/g, '&#10;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;');
  return `${name}${equals.replace(/(?:\r\n?|\n)+/g, ' ')}${value}`;
}

/** True when a tag's source holds `<`, `>` or a line break between its own `<` and `>`. */
const needsEncoding = (tagSource: string) => /[<>\r\n]/.test(tagSource.slice(1, -1));

/**
 * `token` rebuilt from its source without event handlers, unsafe URLs and duplicate attributes,
 * or undefined when it has none of those and needs no encoding (`encodeAttribute`). Attribute
 * texts are copied from `source` (cut at `limit` for a tag left open), so what is kept reads exactly as before — for
 * a browser and for a Markdown renderer, which then sees one tag on one line or plain text.
 */
function cleanTag(
  source: string,
  token: Token.TagToken,
  hadDuplicates: boolean,
  f: SanitizeFindings,
  limit?: number,
): string | undefined {
  const loc = token.location;
  if (!loc) return undefined;
  // A tag left open (cut at `limit`) is escaped whole afterwards: it needs no encoding.
  let changed =
    hadDuplicates || (limit === undefined && needsEncoding(source.slice(loc.startOffset, loc.endOffset)));
  const cut = limit ?? source.length;
  const parts: string[] = [];
  // Names as written back: `<` becomes `&lt;`, which may equal a name already there (`&lt;` and `<`).
  const names = new Set<string>();
  for (const attr of token.attrs) {
    const at = loc.attrs?.[attr.name];
    if (!at || at.startOffset >= cut) continue;
    const raw = source.slice(at.startOffset, Math.min(at.endOffset, cut));
    const name = attr.name.replaceAll('<', '&lt;');
    if (names.has(name) || /^(?:=|\uFE0E|\uFE0F)/.test(name)) {
      // Dropped: a duplicate once written back (browsers keep the first); a name that starts
      // with `=`, which after a kept attribute without a value would be read as its value
      // (`<a y onclick=1 =' x>' onerror=…>` would become `<a y =' x>' onerror=…>`); a name
      // that starts with a presentation selector, which the space put before it would make a
      // stray one (removed by a second pass, leaving such a `=`).
      changed = true;
      continue;
    }
    names.add(name);
    if (attr.name.startsWith('on')) {
      f.eventHandlers++;
      changed = true;
    } else if (!isSafeUrlAttribute(attr.name, attr.value)) {
      f.unsafeLinks++;
      changed = true;
      parts.push(`${raw.slice(0, attr.name.length).replaceAll('<', '&lt;')}=${UNSAFE_URL_VALUE}`);
    } else parts.push(encodeAttribute(raw, attr.name.length));
  }
  if (!changed) return undefined;
  // End tags keep no attributes (browsers ignore them; other readers might not).
  const slash = isEndTag(token) ? '/' : '';
  const nameStart = loc.startOffset + 1 + slash.length;
  const name = source.slice(nameStart, nameStart + token.tagName.length).replaceAll('<', '&lt;');
  const attrs = slash ? '' : parts.map((p) => ` ${p}`).join('');
  return `<${slash}${name}${attrs}${token.selfClosing && !slash ? ' /' : ''}>`;
}

/** Runs the tokenizer over `source`, calling `onToken` for tags, comments and doctypes. */
function tokenize(
  source: string,
  on: {
    tag: (token: Token.TagToken, hadDuplicates: boolean, tokenizer: Tokenizer) => void;
    comment: (token: Token.CommentToken) => void;
    doctype: (token: Token.DoctypeToken) => void;
  },
): number {
  let covered = 0;
  let duplicates = false;
  const cover = (token: { location: Token.Location | null }) => {
    covered = Math.max(covered, Math.min(token.location?.endOffset ?? 0, source.length));
  };
  const tokenizer: Tokenizer = new Tokenizer(
    { sourceCodeLocationInfo: true },
    {
      onStartTag: (token) => {
        cover(token);
        on.tag(token, duplicates, tokenizer);
        duplicates = false;
      },
      onEndTag: (token) => {
        cover(token);
        on.tag(token, duplicates, tokenizer);
        duplicates = false;
      },
      onComment: (token) => {
        cover(token);
        on.comment(token);
      },
      onDoctype: (token) => {
        cover(token);
        on.doctype(token);
      },
      onCharacter: cover,
      onNullCharacter: cover,
      onWhitespaceCharacter: cover,
      onEof: () => {},
      onParseError: (error) => {
        if (error.code === 'duplicate-attribute') duplicates = true;
      },
    },
  );
  tokenizer.write(source, true);
  return covered;
}

/** Counts the hazards of the tag `tail` (which starts with `<` and never closes) in `f`. */
function countOpenTagHazards(tail: string, f: SanitizeFindings): void {
  let seen = false;
  tokenize(tail + CLOSE_ANY_TAG, {
    tag: (token, hadDuplicates) => {
      if (seen || token.location?.startOffset !== 0) return;
      seen = true;
      cleanTag(tail, token, hadDuplicates, f, tail.length);
    },
    comment: () => {},
    doctype: () => {},
  });
}

/** True when the `<!--` comment `source` (as the tokenizer cut it) has its end (`-->`, `--!>`, `<!-->`). */
const isClosedComment = (source: string) => /--!?>$/.test(source);

/**
 * `text` with the `<` of every `<!--` that nothing closes written `&lt;`, counted in `f`. A `<!--`
 * is closed by a later `-->` (from its third character on: `<!-->` is a whole comment) or `--!>`
 * (from its fifth); once one `<!--` has no end, no later one has, so one search finds them all.
 */
function escapeUnclosedComments(text: string, f: SanitizeFindings): string {
  const first = text.indexOf('<!--', Math.max(0, text.lastIndexOf('-->') - 1, text.lastIndexOf('--!>') - 3));
  if (first < 0) return text;
  return (
    text.slice(0, first) +
    text.slice(first).replaceAll('<!--', () => {
      f.htmlComments++;
      return '&lt;!--';
    })
  );
}

/** Where the last end tag of each removed element (`</script` then space, `/` or `>`) starts in `text`. */
function lastEndTags(text: string): Record<string, number> {
  const last: Record<string, number> = {};
  for (const name of Object.keys(REMOVED_WITH_CONTENT)) {
    last[name] = -1;
    for (const m of text.matchAll(new RegExp(`</${name}[\\t\\n\\f\\r />]`, 'gi'))) last[name] = m.index;
  }
  return last;
}

/**
 * One tokenizer pass over `source` (see {@link neutralizeHtml}): its edits, and where markup that
 * never ends starts (`<script>` whose end the tokenizer never found, `<!--` with no end, a tag left
 * open at the end), or -1. Nothing is tokenized after that point: it must be read again.
 */
function scan(source: string, f: SanitizeFindings): { edits: Edit[]; open: number } {
  const edits: Edit[] = [];
  const endTags = lastEndTags(source);
  let removing: { name: string; start: number } | undefined;
  let open = -1;
  const covered = tokenize(source, {
    tag: (token, hadDuplicates, tokenizer) => {
      const loc = token.location;
      if (!loc) return;
      const name = token.tagName;
      const isEnd = isEndTag(token);
      if (removing) {
        if (isEnd && name === removing.name) {
          edits.push({ start: removing.start, end: loc.endOffset, text: `⟦${name} element removed⟧` });
          removing = undefined;
        }
        return;
      }
      const mode = REMOVED_WITH_CONTENT[name];
      if (mode !== undefined && !isEnd) {
        f.dangerousElements++;
        if ((endTags[name] ?? -1) < loc.endOffset) {
          // Never closed: removing it would take all the text after it. Escaped, it is text; so
          // is every `<` in its attributes (`<style <img onerror=…>`), which would be tags then.
          edits.push({
            start: loc.startOffset,
            end: loc.endOffset,
            text: escapeLt(source.slice(loc.startOffset, loc.endOffset)),
          });
          return;
        }
        removing = { name, start: loc.startOffset };
        tokenizer.state = mode;
        return;
      }
      if (REPLACED_TAGS.has(name)) {
        if (!isEnd) f.dangerousElements++;
        edits.push({
          start: loc.startOffset,
          end: loc.endOffset,
          text: `⟦${name} ${isEnd ? 'end tag' : 'tag'} removed⟧`,
        });
        return;
      }
      const cleaned = cleanTag(source, token, hadDuplicates, f);
      if (cleaned !== undefined) edits.push({ start: loc.startOffset, end: loc.endOffset, text: cleaned });
    },
    comment: (token) => {
      const loc = token.location;
      if (!loc) return;
      const end = Math.min(loc.endOffset, source.length);
      f.htmlComments++;
      if (!source.startsWith('<!--', loc.startOffset))
        edits.push({ start: loc.startOffset, end, text: escapeLt(source.slice(loc.startOffset, end)) });
      else if (end < source.length || isClosedComment(source.slice(loc.startOffset, end)))
        edits.push({ start: loc.startOffset, end, text: '⟦hidden HTML comment removed⟧' });
      else open = loc.startOffset;
    },
    doctype: (token) => {
      const loc = token.location;
      if (!loc) return;
      const end = Math.min(loc.endOffset, source.length);
      f.htmlComments++;
      edits.push({ start: loc.startOffset, end, text: escapeLt(source.slice(loc.startOffset, end)) });
    },
  });
  if (removing) open = removing.start;
  else if (open < 0 && covered < source.length && source[covered] === '<') {
    countOpenTagHazards(source.slice(covered), f);
    open = covered;
  } else if (open < 0) {
    // A trailing `<` or `</` would open a tag with whatever text is appended next.
    const dangling = /<\/?$/.exec(source);
    if (dangling) edits.push({ start: dangling.index, end: dangling.index + 1, text: '&lt;' });
  }
  return { edits, open };
}

/** Passes after which the rest of a text whose markup keeps running to its end is all escaped. */
const MAX_SCANS = 2;

/**
 * Neutralises the HTML hazards in `text` (see the module comment), counting them in `f`. Markup
 * that never ends loses its `<` and the text after it is tokenized again from there, as a browser
 * reads it after that `&lt;`. Unclosed comments and raw-text elements are found before the
 * tokenizer reaches them, so a new pass is needed only for a tag left open at the end or a script
 * the tokenizer reads past its last `</script>`; should that happen {@link MAX_SCANS} times, the
 * rest has every `<` escaped, so the time stays linear.
 */
export function neutralizeHtml(input: string, f: SanitizeFindings): string {
  if (!input.includes('<')) return input;
  const text = escapeUnclosedComments(input, f);
  const edits: Edit[] = [];
  for (let from = 0, scans = 1; ; scans++) {
    if (scans > MAX_SCANS) {
      edits.push({ start: from, end: text.length, text: escapeLt(text.slice(from)) });
      break;
    }
    const pass = scan(from === 0 ? text : text.slice(from), f);
    for (const edit of pass.edits) edits.push({ ...edit, start: edit.start + from, end: edit.end + from });
    if (pass.open < 0) break;
    edits.push({ start: from + pass.open, end: from + pass.open + 1, text: '&lt;' });
    from += pass.open + 1;
  }
  if (edits.length === 0) return text;
  edits.sort((a, b) => a.start - b.start);
  let out = '';
  let at = 0;
  for (const edit of edits) {
    if (edit.start < at) continue; // cannot happen: tokens do not overlap
    out += text.slice(at, edit.start) + edit.text;
    at = edit.end;
  }
  return out + text.slice(at);
}
