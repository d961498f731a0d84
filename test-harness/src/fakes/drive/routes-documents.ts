// documents.get of the Docs API v1 (docs.googleapis.com, served by the same fake): a Doc's
// content as the structural JSON of `@googleapis/docs` — paragraphs with named styles, list
// items, tables — from the file's seeded tabs (`FileRecord.tabs`) or, unset, one tab made of its
// Markdown export's lines. As the API does: without `includeTabsContent` the first tab's content
// is in `body` and there is no `tabs`; with it, every tab (nested in `childTabs`) and no `body`.
// `fields` is applied and checked against Docs' schemas.

import { fail } from './errors.js';
import type { FakeDrive } from './fake-drive.js';
import { requireContent } from './fake-drive.js';
import { selectFields } from './fields.js';
import { flag, lookupFile } from './http.js';
import { type DocParagraphRecord, type DocTabRecord, type FileRecord, GOOGLE_TYPES } from './state.js';

type Json = Record<string, unknown>;

/** A file's tabs: seeded, or one tab of its Markdown export's lines. */
function tabsOf(file: FileRecord): DocTabRecord[] {
  if (file.tabs?.length) return file.tabs;
  const paragraphs = (): DocParagraphRecord[] =>
    (file.exports?.['text/markdown']?.toString('utf8') ?? '')
      .split('\n')
      .filter((line) => line.trim())
      .map((line): DocParagraphRecord => {
        const heading = /^(#{1,6}) (.*)$/.exec(line);
        if (heading) return { text: heading[2] ?? '', style: `HEADING_${heading[1]?.length}` };
        const item = /^- (.*)$/.exec(line);
        return item ? { text: item[1] ?? '', bullet: { level: 0 } } : { text: line };
      });
  // Made only when the content is asked for (see tabJson).
  return [
    Object.defineProperty({ id: 't.0', title: 'Tab 1' }, 'paragraphs', { get: paragraphs }) as DocTabRecord,
  ];
}

/** The structural elements of `paragraphs`, with Docs' running indexes and the lists they use. */
function body(paragraphs: DocParagraphRecord[]): { content: Json[]; lists: Json } {
  let index = 1;
  const lists: Json = {};
  const paragraph = (p: Extract<DocParagraphRecord, { text: string }>): Json => {
    const text = `${p.text}\n`;
    const start = index;
    index += text.length;
    let bullet: Json | undefined;
    if (p.bullet) {
      const listId = p.bullet.ordered ? 'kix.ordered' : 'kix.bullets';
      lists[listId] = {
        listProperties: {
          nestingLevels: Array.from({ length: 9 }, () =>
            p.bullet?.ordered ? { glyphType: 'DECIMAL' } : { glyphSymbol: '●' },
          ),
        },
      };
      bullet = { listId, nestingLevel: p.bullet.level };
    }
    return {
      startIndex: start,
      endIndex: index,
      paragraph: {
        elements: [
          {
            startIndex: start,
            endIndex: index,
            textRun: {
              content: text,
              textStyle: {
                ...(p.bold ? { bold: true } : {}),
                ...(p.link ? { link: { url: p.link } } : {}),
              },
            },
          },
        ],
        paragraphStyle: { namedStyleType: p.style ?? 'NORMAL_TEXT' },
        ...(bullet ? { bullet } : {}),
      },
    };
  };
  const content: Json[] = [{ startIndex: 0, endIndex: 1, sectionBreak: { sectionStyle: {} } }];
  for (const p of paragraphs) {
    if ('table' in p) {
      const start = index;
      const tableRows = p.table.map((row) => ({
        tableCells: row.map((cell) => ({ content: [paragraph({ text: cell })] })),
      }));
      content.push({
        startIndex: start,
        endIndex: index,
        table: { rows: p.table.length, columns: p.table[0]?.length ?? 0, tableRows },
      });
    } else content.push(paragraph(p));
  }
  return { content, lists };
}

function tabJson(tab: DocTabRecord, level: number, parent?: string): Json {
  const json: Json = {
    tabProperties: {
      tabId: tab.id,
      title: tab.title,
      index: 0,
      nestingLevel: level,
      ...(parent ? { parentTabId: parent } : {}),
    },
    childTabs: (tab.children ?? []).map((c) => tabJson(c, level + 1, tab.id)),
  };
  // Built only when `fields` selects it (a probe for tab ids on a 10 MB Doc stays cheap).
  Object.defineProperty(json, 'documentTab', {
    enumerable: true,
    get: () => {
      const { content, lists } = body(tab.paragraphs);
      return { body: { content }, lists };
    },
  });
  return json;
}

export function registerDocumentRoutes(drive: FakeDrive): void {
  const { state } = drive;
  drive.route('GET', '/v1/documents/:documentId', (req, who) => {
    requireContent(who);
    const id = req.params.documentId as string;
    const file = lookupFile(state, req, id, false);
    if (file.mimeType !== GOOGLE_TYPES.doc)
      fail(400, 'failedPrecondition', 'This operation is not supported for this document.');
    const tabs = tabsOf(file).map((t, i) => {
      const json = tabJson(t, 0);
      (json.tabProperties as Json).index = i;
      return json;
    });
    const full: Json = { documentId: file.id, title: file.name, revisionId: `rev${file.version}` };
    if (flag(req, 'includeTabsContent')) full.tabs = tabs;
    else {
      const first = tabs[0]?.documentTab as Json | undefined;
      full.body = first?.body;
      full.lists = first?.lists;
    }
    return { body: selectFields(full, 'Document', req.query.get('fields'), '*', 'docs') };
  });
}
