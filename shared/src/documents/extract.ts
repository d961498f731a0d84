/**
 * Dispatch of one extraction by family, run inside the document worker. Zip containers are checked
 * for bombs (actual inflated bytes) before any format library sees them.
 */
import { ExtractError } from './errors.js';
import { extractImage, extractSvg } from './image.js';
import { extractPdf } from './pdf.js';
import { extractSheets } from './sheets.js';
import { extractOdp, extractPptx } from './slides.js';
import { extractDocx, extractOdt } from './text-docs.js';
import type { ExtractedDocument, ExtractRequest } from './types.js';
import { checkZip } from './zip.js';

const ZIPPED = new Set(['docx', 'xlsx', 'pptx', 'odt', 'ods', 'odp']);

export async function extract(request: ExtractRequest): Promise<ExtractedDocument> {
  if (ZIPPED.has(request.kind)) checkZip(request.bytes, request.maxInflatedBytes);
  switch (request.kind) {
    case 'pdf':
      return extractPdf(request);
    case 'docx':
      return extractDocx(request);
    case 'odt':
      return extractOdt(request);
    case 'xlsx':
    case 'xls':
    case 'ods':
    case 'csv':
      return extractSheets(request);
    case 'pptx':
      return extractPptx(request);
    case 'odp':
      return extractOdp(request);
    case 'image':
      return extractImage(request);
    case 'svg':
      return extractSvg(request);
    default:
      throw new ExtractError('unsupported', `${String(request.kind)} documents are not read here`);
  }
}
