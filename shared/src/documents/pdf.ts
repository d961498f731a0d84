/**
 * PDF → text per page with pdf.js (the serverless build unpdf ships: one file, no worker script,
 * no canvas). Nothing in the file runs: pdf.js never executes a PDF's JavaScript, `isEvalSupported:
 * false` keeps font programs from being compiled with eval (CVE-2024-4367), and fonts, CMaps and
 * XFA are never fetched or rendered. A page with no text layer is reported as such (scanned or
 * image-only), not returned empty. A long-lived worker keeps the parsed PDF (parsed-cache.ts), so a
 * cursor continuation does not parse it again.
 */
import type { PDFDocumentProxy } from 'unpdf/pdfjs';
import { PartCollector } from './collect.js';
import { ExtractError, parserReason } from './errors.js';
import { contentKey, ParsedCache } from './parsed-cache.js';
import type { ExtractedDocument, ExtractRequest } from './types.js';

export const NO_TEXT_LAYER =
  'no text layer: a scanned or image-only page (its text cannot be read without OCR, which is not done)';

interface TextItemLike {
  str?: string;
  hasEOL?: boolean;
}

/** Parsed PDFs kept by a long-lived worker (requests with `cache`), by content. */
const parsed = new ParsedCache<PDFDocumentProxy>();

async function openPdf(bytes: Uint8Array): Promise<PDFDocumentProxy> {
  const { getDocumentProxy } = await import('unpdf');
  try {
    return await getDocumentProxy(bytes, {
      isEvalSupported: false,
      disableFontFace: true,
      useSystemFonts: false,
      enableXfa: false,
      stopAtErrors: false,
      verbosity: 0,
    });
  } catch (error) {
    const name = (error as Error)?.name;
    if (name === 'PasswordException') {
      throw new ExtractError(
        'encrypted',
        'it is password-protected (encrypted); no password can be given here',
      );
    }
    throw new ExtractError('corrupt', `it is not a readable PDF (${parserReason(error)})`);
  }
}

const destroy = (doc: PDFDocumentProxy) => {
  doc.destroy().catch(() => {});
};

export async function extractPdf(request: ExtractRequest): Promise<ExtractedDocument> {
  const size = request.bytes.length;
  const kept = request.cache === true && parsed.keeps(size);
  const { value: doc, reused } = kept
    ? await parsed.get(contentKey(request.bytes), size, () => openPdf(request.bytes), destroy)
    : { value: await openPdf(request.bytes), reused: false };
  const total = doc.numPages;
  const last = Math.min(request.lastPart ?? total, total);
  const collect = new PartCollector(request.limits, request.start, last, 'page');
  for (let number = request.start.part; number <= last && collect.open; number++) {
    if (!collect.admit(number)) break;
    let text: string;
    try {
      const page = await doc.getPage(number);
      const content = await page.getTextContent({ includeMarkedContent: false });
      text = (content.items as TextItemLike[]).map((i) => (i.str ?? '') + (i.hasEOL ? '\n' : '')).join('');
      page.cleanup();
    } catch (error) {
      collect.addText({ number, empty: `unreadable page (${parserReason(error)})` }, '');
      continue;
    }
    text = text.replace(/[ \t]+\n/g, '\n').trim();
    if (text) collect.addText({ number }, text);
    else collect.addText({ number, empty: NO_TEXT_LAYER }, '');
  }
  if (!kept) destroy(doc);
  return { ...collect.result('pdf', total), ...(reused ? { reused } : {}) };
}
