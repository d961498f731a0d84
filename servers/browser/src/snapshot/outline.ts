/**
 * The outline of a page too large for an accessibility snapshot (over --max-snapshot-elements):
 * a fast walk in the page over the first `limit` elements in document order, rendered like a
 * snapshot (headings, links with their URL, buttons, form fields, images, text) but without refs —
 * Playwright's snapshot of 200k elements takes minutes, this takes milliseconds (case BR-04).
 * Elements with an id show it as `#id`, usable as a selector target.
 */

import type { Page } from 'playwright-core';

// Evaluated in the page: returns the outline lines of the first `limit` elements.
const OUTLINE = `(limit) => {
  const lines = [];
  let seen = 0;
  const clip = (s, n) => { s = (s || '').replace(/\\s+/g, ' ').trim(); return s.length > n ? s.slice(0, n) + '…' : s; };
  const q = (s) => JSON.stringify(clip(s, 200));
  const skip = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'HEAD', 'META', 'LINK', 'SVG']);
  const roleOf = (el) => {
    const t = el.tagName;
    const explicit = el.getAttribute('role');
    if (explicit) return explicit;
    if (/^H[1-6]$/.test(t)) return 'heading';
    if (t === 'A' && el.hasAttribute('href')) return 'link';
    if (t === 'BUTTON' || (t === 'INPUT' && /^(button|submit|reset)$/i.test(el.type))) return 'button';
    if (t === 'INPUT') return /^(checkbox|radio)$/i.test(el.type) ? el.type.toLowerCase() : 'textbox';
    if (t === 'TEXTAREA') return 'textbox';
    if (t === 'SELECT') return 'combobox';
    if (t === 'IMG') return 'img';
    if (t === 'IFRAME') return 'iframe';
    return '';
  };
  const walk = (el, depth) => {
    for (let c = el.firstElementChild; c && seen < limit; c = c.nextElementSibling) {
      if (skip.has(c.tagName.toUpperCase()) || c.hidden || c.getAttribute('aria-hidden') === 'true') continue;
      seen++;
      const role = roleOf(c);
      const pad = '  '.repeat(Math.min(depth, 20));
      const id = c.id ? ' #' + c.id : '';
      if (role) {
        const name = c.getAttribute('aria-label') || c.getAttribute('alt') || c.getAttribute('placeholder') || c.innerText || c.value || '';
        lines.push(pad + '- ' + role + (name ? ' ' + q(name) : '') + id + (role === 'link' ? ': ' + clip(c.href, 300) : ''));
        if (role !== 'link' && role !== 'button' && role !== 'heading') walk(c, depth + 1);
        continue;
      }
      if (!c.firstElementChild) {
        const text = clip(c.textContent, 300);
        if (text) lines.push(pad + '- text: ' + text + id);
        continue;
      }
      walk(c, depth);
    }
  };
  if (document.body) walk(document.body, 0);
  return { lines, seen };
}`;

export interface Outline {
  text: string;
  /** Elements covered by the outline. */
  covered: number;
}

/** The outline of the first `limit` elements of the page (see the module comment). */
export async function pageOutline(page: Page, limit: number): Promise<Outline> {
  const result = await page.evaluate<{ lines: string[]; seen: number }>(`(${OUTLINE})(${Math.floor(limit)})`);
  return { text: result.lines.join('\n'), covered: result.seen };
}
