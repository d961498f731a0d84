/**
 * A Google Doc's tabs as one Markdown text, from the Docs API's structural JSON (documents.get
 * with `includeTabsContent`; developers.google.com/docs/api/how-tos/tabs): every tab in order,
 * child tabs after their parent, each opened by a `[tab: Parent › Child]` line so the reader knows
 * which tab a part comes from. Paragraph styles become headings (TITLE `#`, SUBTITLE and
 * HEADING_n `#`×n, capped at 6), list items `-` or `1.` indented by nesting level, bold, italic,
 * strikethrough and links inline, tables as Markdown tables (one line per cell), people and rich
 * links by name, images as `[image]`. Pure: no I/O.
 */
import type { docs_v1 } from '@googleapis/docs';

type Tab = docs_v1.Schema$Tab;
type Element = docs_v1.Schema$StructuralElement;
type Lists = docs_v1.Schema$DocumentTab['lists'];

/** Every tab of `tabs`, depth first (a parent before its children), with its title path. */
export function flattenTabs(
  tabs: Tab[] | undefined,
  parents: string[] = [],
): Array<{ tab: Tab; path: string[] }> {
  return (tabs ?? []).flatMap((tab) => {
    const title = (tab.tabProperties?.title ?? '').replace(/\s+/g, ' ').trim() || 'Untitled tab';
    const path = [...parents, title];
    return [{ tab, path }, ...flattenTabs(tab.childTabs ?? undefined, path)];
  });
}

/** The count of tabs in `tabs`, nested ones included. */
export const tabCount = (tabs: Tab[] | undefined): number => flattenTabs(tabs).length;

/** All tabs of a Doc as Markdown (module comment). */
export function tabsToMarkdown(tabs: Tab[] | undefined): string {
  return flattenTabs(tabs)
    .map(({ tab, path }) => {
      const body = elementsToMarkdown(tab.documentTab?.body?.content ?? [], tab.documentTab?.lists);
      return `[tab: ${path.join(' › ')}]\n\n${body}`.trimEnd();
    })
    .join('\n\n');
}

const HEADING: Record<string, number> = {
  TITLE: 1,
  SUBTITLE: 2,
  HEADING_1: 1,
  HEADING_2: 2,
  HEADING_3: 3,
  HEADING_4: 4,
  HEADING_5: 5,
  HEADING_6: 6,
};

function elementsToMarkdown(content: Element[], lists: Lists): string {
  const blocks: string[] = [];
  let inList = false;
  for (const element of content) {
    if (element.paragraph) {
      const p = element.paragraph;
      const text = inlineText(p.elements ?? []).trimEnd();
      const bullet = p.bullet;
      if (bullet) {
        const level = bullet.nestingLevel ?? 0;
        const glyph = lists?.[bullet.listId ?? '']?.listProperties?.nestingLevels?.[level];
        const ordered = Boolean(glyph?.glyphType && glyph.glyphType !== 'GLYPH_TYPE_UNSPECIFIED');
        const item = `${'  '.repeat(level)}${ordered ? '1.' : '-'} ${text}`;
        // Consecutive items form one list: no blank line between them.
        if (inList) blocks[blocks.length - 1] += `\n${item}`;
        else blocks.push(item);
        inList = true;
        continue;
      }
      inList = false;
      if (!text) continue;
      const level = HEADING[p.paragraphStyle?.namedStyleType ?? ''];
      blocks.push(level ? `${'#'.repeat(level)} ${text}` : text);
    } else if (element.table) {
      inList = false;
      const rows = (element.table.tableRows ?? []).map((row) =>
        (row.tableCells ?? []).map((cell) =>
          elementsToMarkdown(cell.content ?? [], lists)
            .replace(/\s*\n+\s*/g, ' ')
            .replace(/\|/g, '\\|'),
        ),
      );
      if (!rows.length) continue;
      const width = Math.max(...rows.map((r) => r.length));
      const line = (r: string[]) => `| ${Array.from({ length: width }, (_, i) => r[i] ?? '').join(' | ')} |`;
      blocks.push([line(rows[0] ?? []), `|${' --- |'.repeat(width)}`, ...rows.slice(1).map(line)].join('\n'));
    } else if (element.tableOfContents) {
      inList = false;
      const toc = elementsToMarkdown(element.tableOfContents.content ?? [], lists);
      if (toc) blocks.push(toc);
    }
  }
  return blocks.join('\n\n');
}

function inlineText(elements: docs_v1.Schema$ParagraphElement[]): string {
  return elements
    .map((e) => {
      if (e.textRun) return styled(e.textRun.content ?? '', e.textRun.textStyle ?? {});
      if (e.person) return e.person.personProperties?.name ?? e.person.personProperties?.email ?? '';
      if (e.richLink) {
        const p = e.richLink.richLinkProperties;
        return p?.uri ? `[${p.title ?? p.uri}](${p.uri})` : (p?.title ?? '');
      }
      if (e.inlineObjectElement) return '[image]';
      if (e.horizontalRule) return '\n---\n';
      if (e.footnoteReference) return `[^${e.footnoteReference.footnoteNumber ?? ''}]`;
      return '';
    })
    .join('');
}

/** `content` with its style as Markdown; the paragraph's newline and edge spaces stay outside the marks. */
function styled(content: string, style: docs_v1.Schema$TextStyle): string {
  const m = /^(\s*)([\s\S]*?)(\s*)$/.exec(content);
  const [lead, core, trail] = [m?.[1] ?? '', m?.[2] ?? '', m?.[3] ?? ''];
  if (!core) return content;
  let out = core;
  if (style.strikethrough) out = `~~${out}~~`;
  if (style.italic) out = `*${out}*`;
  if (style.bold) out = `**${out}**`;
  if (style.link?.url) out = `[${out}](${style.link.url})`;
  return `${lead}${out}${trail}`;
}
