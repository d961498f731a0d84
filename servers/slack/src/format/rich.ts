/**
 * The words of a message that are not in its `text`: Block Kit `blocks` (docs.slack.dev/reference/
 * block-kit/blocks) and legacy secondary `attachments` (docs.slack.dev/messaging/formatting-
 * message-text#attachments: `pretext`, `title`/`title_link`, `text`, `fields`, `footer`, and
 * `fallback` when nothing else is there), as plain lines for the model.
 *
 * Known layouts are kept (rich_text sections, lists, quotes and code; section fields; buttons as
 * `[label]`; images as `[image: alt]`); any other block or element type — Slack adds them often —
 * is read by walking it for the keys that hold words (`text`, `title`, `description`, `label`,
 * `alt_text`, `fallback`…), so its content still shows. Mentions in rich text (`user`, `channel`,
 * `usergroup`, `broadcast` elements) and in mrkdwn strings are named as in {@link readableText}.
 *
 * Bounded against hostile input: at most {@link MAX_DEPTH} levels and {@link MAX_NODES} objects
 * are visited and at most `maxChars` characters kept; the result still goes through the
 * untrusted-text builder (the caller's byte bound and neutralisation) before the model sees it.
 */
import { mentionedUsers, type Names, readableText } from './mrkdwn.js';

/** Deepest nesting read (Slack's own layouts are under 8 deep). */
export const MAX_DEPTH = 16;
/** Most objects visited in one message's blocks and attachments. */
export const MAX_NODES = 5000;

type Node = Record<string, unknown>;

const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** Keys whose string values are words, in the order they are shown. */
const WORD_KEYS = [
  'title',
  'subtitle',
  'caption',
  'label',
  'pretext',
  'text',
  'body',
  'description',
  'hint',
  'placeholder',
  'alt_text',
  'value_text',
] as const;
/** Keys never walked: they hold settings, not content (a confirm dialog, select options). */
const SKIP_KEYS = new Set([
  'confirm',
  'options',
  'option_groups',
  'initial_option',
  'initial_options',
  'filter',
]);

/** Budget of one render: objects visited and characters kept. */
class Budget {
  nodes = 0;
  chars = 0;
  constructor(readonly maxChars: number) {}
  /** False once the budget is spent (the walk stops). */
  visit(): boolean {
    return ++this.nodes <= MAX_NODES && this.chars < this.maxChars;
  }
  take(s: string): string {
    const room = this.maxChars - this.chars;
    if (room <= 0) return '';
    const kept = s.length > room ? s.slice(0, room) : s;
    this.chars += kept.length;
    return kept;
  }
}

/** The renderer of one message (its names and budget). */
class Renderer {
  constructor(
    private readonly names: Names,
    private readonly budget: Budget,
  ) {}

  /** A text object (`{type: "mrkdwn"|"plain_text", text}`) or a string (read as mrkdwn when `mrkdwn`). */
  textOf(v: unknown, mrkdwn = true): string {
    if (typeof v === 'string') return this.budget.take(mrkdwn ? readableText(v, this.names) : v);
    if (isNode(v) && typeof v.text === 'string')
      return this.budget.take(v.type === 'plain_text' ? v.text : readableText(v.text, this.names));
    return '';
  }

  /** Lines of a block list (message `blocks`, an attachment's `blocks`). */
  blocks(list: unknown, depth = 0): string[] {
    if (!Array.isArray(list)) return [];
    const lines: string[] = [];
    for (const b of list) {
      if (!isNode(b)) continue;
      const text = this.block(b, depth + 1).trim();
      if (text) lines.push(text);
      if (!this.budget.visit()) break;
    }
    return lines;
  }

  /** One block as text (layouts known by type; any other type walked for its words). */
  block(b: Node, depth: number): string {
    if (depth > MAX_DEPTH || !this.budget.visit()) return '';
    switch (b.type) {
      case 'rich_text':
        return this.richElements(b.elements, depth);
      case 'section':
      case 'header':
      case 'context':
        return [
          this.textOf(b.text),
          ...this.list(b.fields).map((f) => this.textOf(f)),
          ...this.list(b.elements).map((e) => this.inline(e, depth)),
          isNode(b.accessory) ? this.walk(b.accessory, depth + 1) : '',
        ]
          .filter(Boolean)
          .join(b.type === 'context' ? ' ' : '\n');
      case 'divider':
        return '---';
      case 'markdown':
        return this.textOf(b.text, false);
      case 'image': {
        const alt = this.textOf(b.title, false) || this.budget.take(str(b.alt_text));
        return alt ? `[image: ${alt}]` : '[image]';
      }
      case 'actions':
        return this.list(b.elements)
          .map((e) => this.walk(e, depth + 1))
          .filter(Boolean)
          .map((t) => `[${t}]`)
          .join(' ');
      default:
        return this.walk(b, depth);
    }
  }

  /** The items of `v` when it is an array (none otherwise). */
  private list(v: unknown): Node[] {
    return Array.isArray(v) ? v.filter(isNode) : [];
  }

  /** A context element or other inline item: a text object, an image's alt text, or a walk. */
  private inline(e: Node, depth: number): string {
    if (e.type === 'mrkdwn' || e.type === 'plain_text') return this.textOf(e);
    if (e.type === 'image') return str(e.alt_text) ? `[image: ${this.budget.take(str(e.alt_text))}]` : '';
    return this.walk(e, depth + 1);
  }

  /** rich_text's children: sections, lists, quotes, preformatted (and unknown ones, walked). */
  private richElements(elements: unknown, depth: number): string {
    const out: string[] = [];
    for (const e of this.list(elements)) {
      if (depth > MAX_DEPTH || !this.budget.visit()) break;
      const inline = () => this.richInline(e.elements, depth + 1);
      switch (e.type) {
        case 'rich_text_section':
          out.push(inline());
          break;
        case 'rich_text_preformatted':
          out.push(`\`\`\`\n${inline()}\n\`\`\``);
          break;
        case 'rich_text_quote':
          out.push(
            inline()
              .split('\n')
              .map((l) => `> ${l}`)
              .join('\n'),
          );
          break;
        case 'rich_text_list': {
          const indent = '  '.repeat(Math.min(Number(e.indent) || 0, 8));
          const start = Number(e.offset) || 0;
          const items = this.list(e.elements).map((item, i) => {
            const mark = e.style === 'ordered' ? `${start + i + 1}.` : '-';
            return `${indent}${mark} ${this.richInline(item.elements, depth + 2)}`;
          });
          out.push(items.join('\n'));
          break;
        }
        default:
          out.push(this.walk(e, depth + 1));
      }
    }
    // Sections carry their own newlines; blocks of other kinds start on a line of their own.
    return out.reduce((acc, part, i) => {
      if (i === 0) return part;
      return acc.endsWith('\n') || part.startsWith('\n') ? acc + part : `${acc}\n${part}`;
    }, '');
  }

  /** Inline rich-text elements (text, link, user, channel, emoji, date…) as one string. */
  private richInline(elements: unknown, depth: number): string {
    let s = '';
    for (const e of this.list(elements)) {
      if (!this.budget.visit()) break;
      const style = isNode(e.style) ? e.style : {};
      let piece: string;
      switch (e.type) {
        case 'text':
          piece = this.budget.take(str(e.text));
          if (style.code && piece) piece = `\`${piece}\``;
          break;
        case 'link': {
          const url = str(e.url);
          const label = str(e.text);
          piece = this.budget.take(label && label !== url ? `${label} (${url})` : url);
          break;
        }
        case 'user':
          piece = `@${this.names.user(str(e.user_id)) ?? str(e.user_id)}`;
          break;
        case 'channel':
          piece = `#${this.names.channel(str(e.channel_id)) ?? str(e.channel_id)}`;
          break;
        case 'usergroup':
          piece = '@group';
          break;
        case 'broadcast':
          piece = `@${str(e.range) || 'here'}`;
          break;
        case 'emoji':
          piece = str(e.unicode) ? emojiOf(str(e.unicode), str(e.name)) : `:${str(e.name)}:`;
          break;
        case 'date':
          piece = this.budget.take(str(e.fallback) || String(e.timestamp ?? ''));
          break;
        case 'color':
          piece = str(e.value);
          break;
        default:
          piece = this.walk(e, depth + 1);
      }
      s += piece;
    }
    return s;
  }

  /**
   * Any node Slack may add: its word keys first ({@link WORD_KEYS}, text objects included), then
   * every nested object or list but settings ({@link SKIP_KEYS}); `fallback` only when nothing
   * else was found (it summarises the rest).
   */
  walk(node: Node, depth: number): string {
    if (depth > MAX_DEPTH || !this.budget.visit()) return '';
    if (node.type === 'rich_text' || node.type === 'section' || node.type === 'header')
      return this.block(node, depth);
    const parts: string[] = [];
    for (const key of WORD_KEYS) {
      const v = node[key];
      if (typeof v === 'string' || (isNode(v) && typeof v.text === 'string'))
        parts.push(this.textOf(v, node.type === 'mrkdwn' || isNode(v)));
    }
    for (const [key, v] of Object.entries(node)) {
      if (SKIP_KEYS.has(key) || (WORD_KEYS as readonly string[]).includes(key)) continue;
      if (Array.isArray(v)) {
        for (const item of v) {
          if (Array.isArray(item)) parts.push(this.row(item, depth + 1));
          else if (isNode(item)) parts.push(this.walk(item, depth + 1));
          if (this.budget.chars >= this.budget.maxChars) break;
        }
      } else if (isNode(v)) parts.push(this.walk(v, depth + 1));
    }
    const words = parts.filter(Boolean);
    if (words.length === 0 && typeof node.fallback === 'string') return this.budget.take(node.fallback);
    return words.join(' ');
  }

  /** A row of cells (a table's `rows` are arrays of cells): cells joined by ` | `. */
  private row(cells: unknown[], depth: number): string {
    return cells
      .map((c) => (isNode(c) ? this.walk(c, depth + 1) : ''))
      .join(' | ')
      .trim();
  }

  /** One secondary attachment (module comment). */
  attachment(a: Node): string {
    if (!this.budget.visit()) return '';
    const title = this.textOf(a.title, false);
    const link = str(a.title_link);
    const lines = [
      this.textOf(a.pretext),
      this.textOf(a.author_name, false),
      title ? (link && link !== title ? `${title} (${this.budget.take(link)})` : title) : '',
      this.textOf(a.text),
      ...this.list(a.fields).map((f) => {
        const t = this.textOf(f.title, false);
        const v = this.textOf(f.value);
        return t && v ? `${t}: ${v}` : t || v;
      }),
      ...this.blocks(a.blocks, 1),
      ...this.list(a.message_blocks).flatMap((mb) =>
        isNode(mb.message) ? this.blocks(mb.message.blocks, 1) : [],
      ),
      this.textOf(a.footer),
    ].filter(Boolean);
    if (lines.length === 0) return this.textOf(a.fallback, false);
    return lines.join('\n');
  }
}

/** An emoji element's character from its `unicode` code points ("1f44d" or "1f468-200d-1f4bb"). */
function emojiOf(unicode: string, name: string): string {
  const points = unicode.split('-').map((h) => Number.parseInt(h, 16));
  if (points.some((p) => !Number.isInteger(p) || p < 0 || p > 0x10ffff)) return `:${name}:`;
  return String.fromCodePoint(...points);
}

/** Letters and digits only, lower-case: to tell a block that repeats `text` from one that adds to it. */
const gist = (s: string): string => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

/** What a message holds beyond its fields: `text`, `blocks`, `attachments`. */
export interface RichMessage {
  text?: string;
  blocks?: unknown;
  attachments?: unknown;
}

/**
 * The message's body for the model: its text (markup resolved), its blocks' lines and each
 * attachment, a part left out when another part already holds all its words (clients send the
 * same words as `text` and as a `rich_text` block). At most `maxChars` characters are read from
 * blocks and attachments (the caller bounds the whole in bytes).
 */
export function messageBody(m: RichMessage, names: Names, maxChars: number): string {
  const budget = new Budget(maxChars);
  const r = new Renderer(names, budget);
  const text = readableText(m.text ?? '', names).trim();
  const blocks = r.blocks(m.blocks).join('\n');
  const attachments = (Array.isArray(m.attachments) ? m.attachments : [])
    .filter(isNode)
    .map((a) => r.attachment(a).trim())
    .filter(Boolean);
  const parts = [text, blocks, ...attachments].filter(Boolean);
  const gists = parts.map(gist);
  // A part whose words another part holds is left out (of two equal ones, the later).
  const covered = (i: number) =>
    gists.some((g, j) => {
      const mine = gists[i] ?? '';
      return j !== i && mine !== '' && g.includes(mine) && (g !== mine || j < i);
    });
  const kept = parts.filter((_p, i) => !covered(i));
  return kept.join('\n');
}

/** User ids mentioned in a message's blocks and attachments (`user` elements, `<@U…>` in strings), bounded. */
export function richUsers(m: RichMessage): string[] {
  const found = new Set<string>();
  let nodes = 0;
  const visit = (v: unknown, depth: number): void => {
    if (depth > MAX_DEPTH || ++nodes > MAX_NODES || found.size >= 200) return;
    if (typeof v === 'string') {
      if (v.includes('<@')) for (const id of mentionedUsers(v)) found.add(id);
      return;
    }
    if (Array.isArray(v)) {
      for (const x of v) visit(x, depth + 1);
      return;
    }
    if (!isNode(v)) return;
    if (v.type === 'user' && typeof v.user_id === 'string') found.add(v.user_id);
    for (const x of Object.values(v)) visit(x, depth + 1);
  };
  visit(m.blocks, 0);
  visit(m.attachments, 0);
  return [...found];
}
