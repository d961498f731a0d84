/**
 * Reading a page for research: Mozilla's Readability (the Firefox Reader View engine) runs inside
 * the page on a clone of the live DOM (its source is injected; no DOM implementation in Node), and
 * its cleaned article HTML becomes Markdown with the shared turndown setup (`toMarkdown`, also used
 * by the page reader of `@refmcp/shared/net`), links kept as absolute URLs. Pages where Readability
 * finds no article fall back to the whole body (or a chosen element).
 */
import { READABILITY_SOURCE } from './readability-source.gen.js';

export interface Article {
  title: string;
  byline?: string;
  siteName?: string;
  publishedTime?: string;
  excerpt?: string;
  /** Cleaned HTML of the main content. */
  html: string;
  /** True when Readability found an article; false for the whole-body fallback. */
  readable: boolean;
}

// Evaluated in the page: defines Readability, parses a clone, makes links absolute.
const EXTRACT = `(() => {
${READABILITY_SOURCE}
;
const absolutize = (root) => {
  for (const a of root.querySelectorAll('a[href]')) {
    try { a.setAttribute('href', new URL(a.getAttribute('href'), document.baseURI).href); } catch {}
  }
  for (const img of root.querySelectorAll('img[src]')) {
    try { img.setAttribute('src', new URL(img.getAttribute('src'), document.baseURI).href); } catch {}
  }
  return root;
};
let article = null;
try { article = new Readability(document.cloneNode(true), { charThreshold: 200 }).parse(); } catch {}
if (article && article.content) {
  const box = document.createElement('div');
  box.innerHTML = article.content;
  return { title: article.title || document.title, byline: article.byline || undefined, siteName: article.siteName || undefined,
    publishedTime: article.publishedTime || undefined, excerpt: article.excerpt || undefined,
    html: absolutize(box).innerHTML, readable: true };
}
const body = document.body ? absolutize(document.body.cloneNode(true)) : null;
if (body) for (const n of body.querySelectorAll('script,style,noscript,template,svg,iframe')) n.remove();
return { title: document.title, html: body ? body.innerHTML : '', readable: false };
})()`;

/** The page's main content (see the module comment). Runs in the page's main world. */
export async function extractArticle(page: {
  evaluate<R>(expression: string): Promise<R>;
}): Promise<Article> {
  return page.evaluate<Article>(EXTRACT);
}
