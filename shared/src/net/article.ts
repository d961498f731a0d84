/**
 * A fetched HTML page → its readable article as Markdown. Mozilla's Readability (the Firefox
 * Reader View engine) runs on a light DOM (linkedom) of the page, with links and images made
 * absolute against the page URL (or its <base href>); its cleaned article HTML becomes Markdown
 * (markdown.ts). A page where Readability finds no article of at least 200 characters falls back to
 * the whole body, without scripts, styles and frames, and a page without markup to its text.
 */
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import { toMarkdown } from './markdown.js';

export interface Article {
  /** The article's title (Readability's, else the document's <title>), if any. */
  title?: string;
  byline?: string;
  siteName?: string;
  /** The content as Markdown (trimmed; may be empty for an empty page). */
  markdown: string;
  /** 'article' when Readability found one; 'body' for the whole-body fallback. */
  extraction: 'article' | 'body';
}

type Doc = ReturnType<typeof parseHTML>['document'];

/** Readability's minimum article length in characters (the browser's reader uses the same). */
const CHAR_THRESHOLD = 200;

function absolutize(document: Doc, pageUrl: string): void {
  let base = pageUrl;
  const baseHref = document.querySelector('base[href]')?.getAttribute('href');
  if (baseHref) {
    try {
      base = new URL(baseHref, pageUrl).href;
    } catch {
      // a broken <base> is ignored, as browsers do
    }
  }
  for (const [selector, attribute] of [
    ['a[href]', 'href'],
    ['img[src]', 'src'],
  ] as const) {
    for (const element of document.querySelectorAll(selector)) {
      const value = element.getAttribute(attribute);
      if (value === null) continue;
      try {
        element.setAttribute(attribute, new URL(value, base).href);
      } catch {
        // left as written
      }
    }
  }
}

function parse(html: string, pageUrl: string): Doc {
  const { document } = parseHTML(html);
  absolutize(document, pageUrl);
  return document;
}

const clean = (text: string | null | undefined) => text?.replace(/\s+/g, ' ').trim() || undefined;

/**
 * The readable content of `html`, fetched from `pageUrl` (which resolves relative links).
 * Never throws on odd markup: a Readability failure means the whole-body fallback.
 */
export function htmlToArticle(html: string, pageUrl: string): Article {
  const document = parse(html, pageUrl);
  const docTitle = clean(document.querySelector('title')?.textContent);
  let article: ReturnType<Readability['parse']> = null;
  try {
    article = new Readability(document as unknown as ConstructorParameters<typeof Readability>[0], {
      charThreshold: CHAR_THRESHOLD,
    }).parse();
  } catch {
    article = null;
  }
  // Below the threshold Readability still returns its best attempt, often a fragment of a short
  // or list-like page: the whole body says more there.
  if (article?.content && (article.textContent ?? '').trim().length >= CHAR_THRESHOLD) {
    const markdown = toMarkdown(article.content);
    if (markdown)
      return {
        title: clean(article.title) ?? docTitle,
        byline: clean(article.byline),
        siteName: clean(article.siteName),
        markdown,
        extraction: 'article',
      };
  }
  // Readability changes the document it reads, so the fallback parses the page again.
  const fresh = parse(html, pageUrl);
  const body = fresh.body ?? fresh.documentElement;
  for (const node of body?.querySelectorAll('script,style,noscript,template,svg,iframe') ?? []) node.remove();
  const markdown = body ? toMarkdown(body.innerHTML) || (body.textContent ?? '').trim() : '';
  return { title: docTitle, markdown, extraction: 'body' };
}
