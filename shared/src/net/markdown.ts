/**
 * HTML → Markdown with turndown: ATX headings, fenced code, inline links, `-` bullets, `_`
 * emphasis; scripts, styles, frames and form controls dropped; runs of blank lines folded. Used
 * by the browser's reader and by `readPage`.
 */
import TurndownService from 'turndown';

let service: TurndownService | undefined;

/** HTML (a fragment or a document) → Markdown, trimmed. Links are kept as written (absolutise first). */
export function toMarkdown(html: string): string {
  if (!service) {
    service = new TurndownService({
      headingStyle: 'atx',
      codeBlockStyle: 'fenced',
      bulletListMarker: '-',
      emDelimiter: '_',
      linkStyle: 'inlined',
    });
    service.remove([
      'script',
      'style',
      'noscript',
      'template',
      'iframe',
      'canvas',
      'form',
      'button',
      'input',
      'select',
      'textarea',
    ]);
  }
  return service
    .turndown(html)
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
