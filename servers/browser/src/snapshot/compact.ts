/**
 * Compacts Playwright's AI-mode accessibility snapshot (YAML-like lines "- role "name" [attr]…")
 * without losing anything a model acts on:
 *   - unnamed `generic` / `rowgroup` containers (layout divs) are removed and their children moved
 *     up one level, which also removes the indentation they cost on every descendant line;
 *   - `[ref=…]` is kept only where an action can use it: interactive roles (links, buttons, form
 *     controls, tabs, menu items, options…), anything with `[cursor=pointer]`, named generics
 *     (e.g. <summary>), frames and images — every actionable element keeps its ref, so refs from
 *     the full Playwright snapshot and ours are the same where both show one;
 *   - `[cursor=pointer]` is dropped where the role already says it is clickable (link, button…);
 *   - a link's `- /url: …` child line becomes a `[url=…]` attribute on the link's own line;
 *   - a name repeated verbatim by an element's only child (a heading around a link of the same
 *     text) is said once, on the child;
 *   - an unnamed container whose only child is a leaf shares its line: `- cell > link "open" [ref=e9]`.
 * Pure: text in, text out.
 */

/** Roles whose elements a model clicks, types into, selects or drags. */
export const ACTIONABLE_ROLES = new Set([
  'link',
  'button',
  'textbox',
  'searchbox',
  'checkbox',
  'radio',
  'combobox',
  'listbox',
  'option',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'tab',
  'switch',
  'slider',
  'spinbutton',
  'treeitem',
  'gridcell',
  'columnheader',
  'rowheader',
  'scrollbar',
  'iframe',
  'img',
  'video',
  'audio',
]);

/** Roles whose cursor=pointer is implied. */
const CLICKABLE_ROLES = new Set([
  'link',
  'button',
  'menuitem',
  'tab',
  'option',
  'checkbox',
  'radio',
  'switch',
]);

/** Unnamed containers that are pure layout. */
const LAYOUT_ROLES = new Set(['generic', 'rowgroup', 'none', 'presentation']);

interface Parsed {
  indent: number;
  role: string;
  named: boolean;
  /** The whole text after "- ". */
  body: string;
  hasChildren: boolean;
  /** Text after the colon on the same line (inline value), if any. */
  inline: boolean;
}

// "- role "name" [a] [b]:" or "- role [a]: text" or "- text: …" or "- /url: …"
const LINE = /^(\s*)- ([^\s":[]+)( "(?:[^"\\]|\\.)*")?((?: \[[^\]]*\])*)(:?)(.*)$/;

function parse(line: string): Parsed | undefined {
  const m = LINE.exec(line);
  if (!m) return undefined;
  const colon = m[5] === ':';
  const rest = m[6] ?? '';
  return {
    indent: (m[1] ?? '').length,
    role: m[2] ?? '',
    named: m[3] !== undefined,
    body: line.slice((m[1] ?? '').length + 2),
    hasChildren: colon && rest.trim() === '',
    inline: colon && rest.trim() !== '',
  };
}

function keepRef(p: Parsed): boolean {
  if (ACTIONABLE_ROLES.has(p.role)) return true;
  if (p.body.includes('[cursor=pointer]')) return true;
  return p.role === 'generic' && p.named;
}

function rewrite(p: Parsed): string {
  let body = p.body;
  if (!keepRef(p)) body = body.replace(/ \[ref=[^\]]+\]/, '');
  if (CLICKABLE_ROLES.has(p.role)) body = body.replace(' [cursor=pointer]', '');
  return `${' '.repeat(p.indent)}- ${body}`;
}

/** The compact form of a Playwright AI snapshot (see the module comment). */
export function compactSnapshot(snapshot: string): string {
  const lines = snapshot.split('\n');
  const out: string[] = [];
  // Each open container that was dropped: its indent; descendants are shifted left by 2 per entry.
  const dropped: number[] = [];
  for (const line of lines) {
    if (!line.trim()) continue;
    const indent = line.length - line.trimStart().length;
    while (dropped.length && indent <= (dropped[dropped.length - 1] ?? -1)) dropped.pop();
    const shift = dropped.length * 2;
    const p = parse(line);
    if (!p) {
      out.push(line.slice(Math.min(shift, indent)));
      continue;
    }
    const attrs = p.body.replace(/ \[(ref=[^\]]+|active)\]/g, '');
    const pureLayout = LAYOUT_ROLES.has(p.role) && !p.named && p.hasChildren && !attrs.includes('[');
    if (pureLayout) {
      dropped.push(indent);
      continue;
    }
    const shifted = { ...p, indent: Math.max(0, p.indent - shift) };
    const parent = out[out.length - 1];
    if (
      p.role === '/url' &&
      p.inline &&
      parent?.startsWith(`${' '.repeat(Math.max(0, shifted.indent - 2))}- link`)
    ) {
      const url = p.body.slice(p.body.indexOf(':') + 1).trim();
      out[out.length - 1] = parent.replace(/:$/, ` [url=${url}]:`);
      continue;
    }
    out.push(rewrite(shifted));
  }
  return foldRepeatedNames(out).join('\n');
}

const indentOf = (line: string) => line.length - line.trimStart().length;

/**
 * Drops the trailing ':' of lines whose children were all folded into them, the name of a line
 * whose only child carries the same name, and puts a leaf that is an unnamed container's only
 * child on the container's line ("- cell > link …").
 */
function foldRepeatedNames(lines: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i] ?? '';
    if (!line.endsWith(':')) {
      out.push(line);
      continue;
    }
    const indent = indentOf(line);
    const next = lines[i + 1];
    if (next === undefined || indentOf(next) <= indent) {
      out.push(line.slice(0, -1));
      continue;
    }
    const after = lines[i + 2];
    const onlyChild = after === undefined || indentOf(after) <= indent;
    const name = /^\s*- [^\s":[]+ ("(?:[^"\\]|\\.)*")/.exec(line)?.[1];
    if (onlyChild && name && next.includes(` ${name}`)) line = line.replace(` ${name}`, '');
    const unnamed = !/^\s*- [^\s":[]+ "/.test(line) && !line.includes('[ref=');
    const third = lines[i + 2];
    const childIsLeaf = third === undefined || indentOf(third) <= indentOf(next);
    if (onlyChild && unnamed && childIsLeaf) {
      out.push(`${line.slice(0, -1)} > ${next.trimStart().slice(2).replace(/:$/, '')}`);
      i++;
      continue;
    }
    out.push(line);
  }
  return out;
}

/** Refs of actionable elements in a snapshot (either form), for checks and the bench. */
export function actionableRefs(snapshot: string): string[] {
  const refs: string[] = [];
  for (const raw of snapshot.split('\n')) {
    // A folded line "- cell > link …" describes its last element.
    const parts = raw.split(' > ');
    const line = parts.length > 1 ? `- ${parts[parts.length - 1]}` : raw;
    const p = parse(line);
    const ref = /\[ref=([^\]]+)\]/.exec(line)?.[1];
    if (p && ref && (ACTIONABLE_ROLES.has(p.role) || line.includes('[cursor=pointer]'))) refs.push(ref);
  }
  return refs;
}
