/**
 * XML parts of zip containers as ordered trees (fast-xml-parser, preserveOrder), and the walks the
 * slide and OpenDocument readers need. A DOCTYPE is refused: OOXML and OpenDocument parts never
 * carry one, and entity definitions are how XML expands (billion laughs) or reaches out.
 */
import { XMLParser } from 'fast-xml-parser';
import { ExtractError, parserReason } from './errors.js';

/** One element: `{ [tag]: children, ':@'?: attributes }`, or a text node `{ '#text': string }`. */
export type XmlNode = Record<string, unknown>;

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  trimValues: false,
  parseTagValue: false,
  parseAttributeValue: false,
  processEntities: true,
  htmlEntities: false,
});

/** Parses one XML part; ExtractError('corrupt') when it is not XML or declares a DOCTYPE. */
export function parseXml(text: string, part: string): XmlNode[] {
  if (/<!DOCTYPE/i.test(text.slice(0, 4096))) throw new ExtractError('corrupt', `${part} declares a DOCTYPE`);
  try {
    return parser.parse(text) as XmlNode[];
  } catch (error) {
    throw new ExtractError('corrupt', `${part} is not well-formed XML (${parserReason(error)})`);
  }
}

/** The element's tag ("a:p"), or "#text" for text. */
export function tagOf(node: XmlNode): string {
  return Object.keys(node).find((k) => k !== ':@') ?? '';
}

export function childrenOf(node: XmlNode): XmlNode[] {
  const value = node[tagOf(node)];
  return Array.isArray(value) ? (value as XmlNode[]) : [];
}

export function attr(node: XmlNode, name: string): string | undefined {
  const attrs = node[':@'] as Record<string, string> | undefined;
  return attrs?.[name];
}

/** Every element named `tag` under `nodes`, in document order, not looking inside a match. */
export function findAll(nodes: XmlNode[], tag: string, out: XmlNode[] = []): XmlNode[] {
  for (const node of nodes) {
    if (tagOf(node) === tag) out.push(node);
    else findAll(childrenOf(node), tag, out);
  }
  return out;
}

/** The first element named `tag` under `nodes` (depth-first). */
export function findFirst(nodes: XmlNode[], tag: string): XmlNode | undefined {
  for (const node of nodes) {
    if (tagOf(node) === tag) return node;
    const inner = findFirst(childrenOf(node), tag);
    if (inner) return inner;
  }
  return undefined;
}

/** Concatenated text of the nodes, with `special` mapping elements (tabs, breaks) to text. */
export function textOf(
  nodes: XmlNode[],
  special: (node: XmlNode) => string | undefined = () => undefined,
): string {
  let out = '';
  for (const node of nodes) {
    const tag = tagOf(node);
    if (tag === '#text') out += String(node['#text'] ?? '');
    else out += special(node) ?? textOf(childrenOf(node), special);
  }
  return out;
}
