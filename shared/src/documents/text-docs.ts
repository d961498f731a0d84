/**
 * Word processing documents → Markdown (headings, lists, tables, links). .docx through mammoth
 * (semantic HTML from the document's styles, then turndown with a table rule); .odt by walking
 * content.xml (OpenDocument 1.3 Part 3, §5 text content, §9 tables). Images are named, never
 * embedded; links are kept as written and never followed.
 */
import TurndownService from 'turndown';
import { PartCollector } from './collect.js';
import { ExtractError, parserReason } from './errors.js';
import type { ExtractedDocument, ExtractRequest } from './types.js';
import { attr, childrenOf, findFirst, parseXml, tagOf, textOf, type XmlNode } from './xml.js';
import { readEntries } from './zip.js';

const cell = (text: string) => text.replace(/\s+/g, ' ').replace(/\|/g, '\\|').trim();

/** A GitHub-flavoured Markdown table; the first row is the header. */
export function markdownTable(rows: string[][]): string {
  const width = Math.max(1, ...rows.map((r) => r.length));
  const line = (r: string[]) =>
    `| ${Array.from({ length: width }, (_, i) => cell(r[i] ?? '')).join(' | ')} |`;
  const [head = [], ...body] = rows;
  return [line(head), `|${' --- |'.repeat(width)}`, ...body.map(line)].join('\n');
}

let turndown: TurndownService | undefined;
function htmlToMarkdown(html: string): string {
  if (!turndown) {
    turndown = new TurndownService({
      headingStyle: 'atx',
      codeBlockStyle: 'fenced',
      bulletListMarker: '-',
      emDelimiter: '_',
    });
    turndown.addRule('table', {
      filter: 'table',
      replacement: (_content, node) => {
        type El = { querySelectorAll(s: string): ArrayLike<El>; children: ArrayLike<El>; innerHTML: string };
        const rows = Array.from((node as unknown as El).querySelectorAll('tr')).map((tr) =>
          Array.from(tr.children).map((c) => turndown?.turndown(c.innerHTML) ?? ''),
        );
        return rows.length ? `\n\n${markdownTable(rows)}\n\n` : '';
      },
    });
  }
  return turndown
    .turndown(html)
    .replace(/^(\s*)([-*]|\d+\.)\s+/gm, '$1$2 ')
    .replace(/\\\[(image(?:: [^\]\n]*)?)\\\]/g, '[$1]')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

export async function extractDocx(request: ExtractRequest): Promise<ExtractedDocument> {
  const mammoth = (await import('mammoth')).default;
  let html: string;
  try {
    const result = await mammoth.convertToHtml(
      { buffer: Buffer.from(request.bytes.buffer, request.bytes.byteOffset, request.bytes.byteLength) },
      {
        // Images become their alt text (or "image"), never data: URIs or fetched links.
        convertImage: mammoth.images.imgElement(async (image) => {
          const alt = (image as { altText?: string }).altText;
          return { src: '', alt: `[image${alt ? `: ${alt}` : ''}]` };
        }),
        externalFileAccess: false,
      } as Parameters<typeof mammoth.convertToHtml>[1],
    );
    html = result.value;
  } catch (error) {
    throw new ExtractError('corrupt', `it is not a readable .docx (${parserReason(error)})`);
  }
  // turndown drops an <img> with an empty src; its alt is what the model should read.
  html = html.replace(/<img [^>]*alt="([^"]*)"[^>]*>/g, (_m, alt: string) => alt);
  return single(request, 'docx', htmlToMarkdown(html));
}

/** A flowing document: one part, continued by character offset. */
function single(request: ExtractRequest, kind: 'docx' | 'odt', text: string): ExtractedDocument {
  const collect = new PartCollector(request.limits, request.start, 1, 'part');
  if (request.start.part === 1) collect.addText({ number: 1 }, text);
  return collect.result(kind, 1);
}

export function extractOdt(request: ExtractRequest): ExtractedDocument {
  const content = readEntries(request.bytes, (n) => n === 'content.xml').get('content.xml');
  if (content === undefined) throw new ExtractError('corrupt', 'it has no content.xml');
  const body = findFirst(parseXml(content, 'content.xml'), 'office:text');
  const blocks: string[] = [];
  for (const node of childrenOf(body ?? {})) odtBlock(node, blocks, 0);
  return single(
    request,
    'odt',
    blocks
      .join('\n\n')
      .replace(/\n{3,}/g, '\n\n')
      .trim(),
  );
}

function odtInline(nodes: XmlNode[]): string {
  return textOf(nodes, (node) => {
    switch (tagOf(node)) {
      case 'text:s':
        return ' '.repeat(Number(attr(node, 'text:c') ?? 1) || 1);
      case 'text:tab':
        return '\t';
      case 'text:line-break':
        return '\n';
      case 'text:note':
        return '';
      case 'draw:frame':
        return `[image${attr(node, 'draw:name') ? `: ${attr(node, 'draw:name')}` : ''}]`;
      case 'text:a': {
        const label = odtInline(childrenOf(node));
        const href = attr(node, 'xlink:href');
        return href ? `[${label}](${href})` : label;
      }
      default:
        return undefined;
    }
  });
}

function odtBlock(node: XmlNode, out: string[], depth: number): void {
  switch (tagOf(node)) {
    case 'text:h': {
      const level = Math.min(6, Math.max(1, Number(attr(node, 'text:outline-level') ?? 1) || 1));
      out.push(`${'#'.repeat(level)} ${odtInline(childrenOf(node)).trim()}`);
      return;
    }
    case 'text:p': {
      const text = odtInline(childrenOf(node)).trim();
      if (text) out.push(text);
      return;
    }
    case 'text:list': {
      const items: string[] = [];
      for (const item of childrenOf(node)) {
        if (tagOf(item) !== 'text:list-item') continue;
        const inner: string[] = [];
        for (const child of childrenOf(item)) odtBlock(child, inner, depth + 1);
        const [first = '', ...rest] = inner;
        items.push(`${'  '.repeat(depth)}- ${first}`, ...rest);
      }
      out.push(items.join('\n'));
      return;
    }
    case 'table:table': {
      const rows: string[][] = [];
      const collectRows = (nodes: XmlNode[]) => {
        for (const child of nodes) {
          const tag = tagOf(child);
          if (tag === 'table:table-row') {
            rows.push(
              childrenOf(child)
                .filter((c) => tagOf(c) === 'table:table-cell')
                .map((c) => {
                  const parts: string[] = [];
                  for (const p of childrenOf(c)) odtBlock(p, parts, 0);
                  return parts.join(' ');
                }),
            );
          } else if (tag.startsWith('table:table-header-rows') || tag === 'table:table-rows') {
            collectRows(childrenOf(child));
          }
        }
      };
      collectRows(childrenOf(node));
      if (rows.length) out.push(markdownTable(rows));
      return;
    }
    case 'text:section':
      for (const child of childrenOf(node)) odtBlock(child, out, depth);
      return;
    default:
      return;
  }
}
