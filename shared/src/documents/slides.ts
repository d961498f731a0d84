/**
 * Presentations → text per slide with its speaker notes. .pptx: slides in the order
 * ppt/presentation.xml lists them (ECMA-376 Part 1 §19.2.1.34 sldIdLst), each slide's paragraphs
 * (a:p) and its notes slide found through the slide's relationships (§13.3.5). .odp: each
 * draw:page of content.xml with its presentation:notes (OpenDocument 1.3 Part 3 §10.2, §16.13).
 */
import { posix } from 'node:path';
import { PartCollector } from './collect.js';
import { ExtractError } from './errors.js';
import type { ExtractedDocument, ExtractRequest } from './types.js';
import { attr, childrenOf, findAll, findFirst, parseXml, tagOf, textOf, type XmlNode } from './xml.js';
import { readEntries } from './zip.js';

const NOTES_TYPE = /\/notesSlide$/;

function relationships(
  xml: string | undefined,
  part: string,
  base: string,
): Map<string, { type: string; target: string }> {
  const map = new Map<string, { type: string; target: string }>();
  if (!xml) return map;
  for (const rel of findAll(parseXml(xml, part), 'Relationship')) {
    const id = attr(rel, 'Id');
    const target = attr(rel, 'Target');
    if (id && target && attr(rel, 'TargetMode') !== 'External') {
      map.set(id, { type: attr(rel, 'Type') ?? '', target: posix.normalize(posix.join(base, target)) });
    }
  }
  return map;
}

/** Paragraphs of DrawingML text (a:p of a:t runs, a:br breaks), slide-number fields left out. */
function drawingText(nodes: XmlNode[]): string {
  return findAll(nodes, 'a:p')
    .map((p) =>
      textOf(childrenOf(p), (n) => {
        const tag = tagOf(n);
        if (tag === 'a:br') return '\n';
        if (tag === 'a:fld' && attr(n, 'type') === 'slidenum') return '';
        if (tag === 'a:pPr' || tag === 'a:rPr' || tag === 'a:endParaRPr') return '';
        return undefined;
      }).trim(),
    )
    .filter(Boolean)
    .join('\n');
}

export function extractPptx(request: ExtractRequest): ExtractedDocument {
  const entries = readEntries(
    request.bytes,
    (n) => n === 'ppt/presentation.xml' || n === 'ppt/_rels/presentation.xml.rels',
  );
  const presentation = entries.get('ppt/presentation.xml');
  if (!presentation) throw new ExtractError('corrupt', 'it has no ppt/presentation.xml');
  const rels = relationships(entries.get('ppt/_rels/presentation.xml.rels'), 'presentation.xml.rels', 'ppt');
  const slides = findAll(parseXml(presentation, 'ppt/presentation.xml'), 'p:sldId')
    .map((s) => rels.get(attr(s, 'r:id') ?? '')?.target)
    .filter((t): t is string => !!t);
  const last = Math.min(request.lastPart ?? slides.length, slides.length);
  const collect = new PartCollector(request.limits, request.start, last, 'slide');
  const wanted = slides.slice(request.start.part - 1, last).slice(0, request.limits.maxParts + 1);
  const relsOf = (slide: string) => `${posix.dirname(slide)}/_rels/${posix.basename(slide)}.rels`;
  const slideParts = readEntries(
    request.bytes,
    (n) => wanted.includes(n) || wanted.some((s) => relsOf(s) === n),
  );
  const notesPaths = new Map<string, string>();
  for (const slide of wanted) {
    const notes = [
      ...relationships(slideParts.get(relsOf(slide)), relsOf(slide), posix.dirname(slide)).values(),
    ].find((r) => NOTES_TYPE.test(r.type));
    if (notes) notesPaths.set(slide, notes.target);
  }
  const notesParts = readEntries(request.bytes, (n) => [...notesPaths.values()].includes(n));
  wanted.forEach((slide, i) => {
    const number = request.start.part + i;
    if (!collect.open || !collect.admit(number)) return;
    const xml = slideParts.get(slide);
    const text = xml ? drawingText(parseXml(xml, slide)) : '';
    const notesXml = notesParts.get(notesPaths.get(slide) ?? '');
    // The notes slide repeats the slide image and number; its body placeholder holds the notes.
    const notes = notesXml ? notesText(parseXml(notesXml, 'notes')) : '';
    collect.addText(
      { number, ...(notes ? { notes } : {}), ...(text ? {} : { empty: 'no text on this slide' }) },
      text,
    );
  });
  return collect.result('pptx', slides.length);
}

function notesText(nodes: XmlNode[]): string {
  const body = findAll(nodes, 'p:sp').filter((sp) => {
    const ph = findFirst(childrenOf(sp), 'p:ph');
    return ph && attr(ph, 'type') === 'body';
  });
  return drawingText(body.length ? body : nodes);
}

export function extractOdp(request: ExtractRequest): ExtractedDocument {
  const content = readEntries(request.bytes, (n) => n === 'content.xml').get('content.xml');
  if (content === undefined) throw new ExtractError('corrupt', 'it has no content.xml');
  const pages = findAll(parseXml(content, 'content.xml'), 'draw:page');
  const last = Math.min(request.lastPart ?? pages.length, pages.length);
  const collect = new PartCollector(request.limits, request.start, last, 'slide');
  for (let number = request.start.part; number <= last && collect.open; number++) {
    if (!collect.admit(number)) break;
    const page = pages[number - 1] as XmlNode;
    const slideNodes = childrenOf(page).filter((n) => tagOf(n) !== 'presentation:notes');
    const notesNode = childrenOf(page).find((n) => tagOf(n) === 'presentation:notes');
    const paragraphs = (nodes: XmlNode[]) =>
      findAll(nodes, 'text:p')
        .map((p) => textOf(childrenOf(p), (n) => (tagOf(n) === 'text:line-break' ? '\n' : undefined)).trim())
        .filter(Boolean)
        .join('\n');
    const text = paragraphs(slideNodes);
    const notes = notesNode ? paragraphs(childrenOf(notesNode)) : '';
    const name = attr(page, 'draw:name');
    collect.addText(
      {
        number,
        ...(name ? { name } : {}),
        ...(notes ? { notes } : {}),
        ...(text ? {} : { empty: 'no text on this slide' }),
      },
      text,
    );
  }
  return collect.result('odp', pages.length);
}
