/**
 * The shapes that cross the worker boundary: what is asked of an extraction and what comes back.
 * Plain data only (structured clone).
 */

/** The document families read here. */
export type DocumentKind =
  | 'pdf'
  | 'docx'
  | 'odt'
  | 'xlsx'
  | 'xls'
  | 'ods'
  | 'csv'
  | 'pptx'
  | 'odp'
  | 'image'
  | 'svg';

/** Where reading starts: a part (page, slide or sheet, from 1) and, within it, a row or character offset. */
export interface DocumentPosition {
  part: number;
  /** Rows (sheets) or characters (text) of `part` already returned. */
  offset: number;
}

/** Budgets of one extraction. Every one is a hard ceiling. */
export interface ExtractLimits {
  /** Text returned, in UTF-8 bytes; reading stops at a line boundary past it and says where to go on. */
  maxBytes: number;
  /** Table rows returned per call, over all sheets. */
  maxRows: number;
  /** Pages, slides or sheets returned per call. */
  maxParts: number;
  /** Encoded image bytes returned (images are scaled down to fit). */
  maxImageBytes: number;
  /** Largest side of a returned image, in pixels (8000: the largest most model APIs accept). */
  maxImageSide: number;
}

/** What the worker is asked to do. */
export interface ExtractRequest {
  kind: DocumentKind;
  bytes: Uint8Array;
  start: DocumentPosition;
  /** Last part to read (inclusive), when a range was asked for. */
  lastPart?: number;
  limits: ExtractLimits;
  /** Largest sum of uncompressed entry sizes of a zip container, in bytes (zip-bomb ceiling). */
  maxInflatedBytes: number;
  /** Largest decoded image, in pixels. */
  maxImagePixels: number;
  /**
   * Keep the parsed document for the next request on the same bytes (parsed-cache.ts): set when
   * the worker outlives the request (run.ts). PDFs only.
   */
  cache?: boolean;
}

/** One page, slide or sheet of text. */
export interface DocumentPart {
  /** 1-based number of the page, slide or sheet. */
  number: number;
  /** Sheet or slide name, when the document gives one. */
  name?: string;
  /** The text: plain text (PDF, slides), Markdown (docx, odt), or a Markdown table (sheets). */
  text: string;
  /** Speaker notes of a slide. */
  notes?: string;
  /** The used range of a sheet as the file declares it (e.g. "A1:F600000"). */
  range?: string;
  /** Rows in the sheet, when known. */
  rows?: number;
  /** Why the part has no text (e.g. a scanned page without a text layer). */
  empty?: string;
  /** Rows or characters of this part skipped before `text` (continuations). */
  offset?: number;
}

/** A scaled image. */
export interface DocumentImage {
  data: Uint8Array;
  mimeType: string;
  width: number;
  height: number;
  originalWidth: number;
  originalHeight: number;
  originalMimeType: string;
}

/** What an extraction returns. */
export interface ExtractedDocument {
  kind: DocumentKind;
  /** Pages, slides or sheets in the whole document. */
  totalParts: number;
  parts: DocumentPart[];
  image?: DocumentImage;
  /** Where the next call starts, when a budget stopped this one before the end (or the range's end). */
  next?: DocumentPosition;
  /** The budget that stopped reading, in words ("64 KiB of text", "500 rows", "20 pages"). */
  stoppedBy?: string;
  /** True when the worker reused a document it had parsed for an earlier request (same bytes). */
  reused?: boolean;
}

/** Why an extraction failed, for the error the model reads. */
export type ExtractFailure = 'encrypted' | 'corrupt' | 'too-large' | 'unsupported' | 'timeout' | 'memory';

/** An HTML page to turn into its readable article (net/article.ts), off the server's thread. */
export interface HtmlRequest {
  kind: 'html';
  html: string;
  /** The page's URL, which resolves its relative links. */
  url: string;
}

/** A page's readable article as Markdown: net/article.ts `Article`, as the worker returns it. */
export interface ConvertedArticle {
  title?: string;
  byline?: string;
  siteName?: string;
  markdown: string;
  extraction: 'article' | 'body';
}

/** A request as posted to a worker: `id` pairs it with its reply. */
export interface WorkerMessage {
  id: number;
  request: ExtractRequest | HtmlRequest;
}

export interface WorkerReply {
  /** The {@link WorkerMessage.id} answered. */
  id?: number;
  ok: boolean;
  document?: ExtractedDocument;
  /** The answer to an {@link HtmlRequest}. */
  article?: ConvertedArticle;
  failure?: ExtractFailure;
  message?: string;
}
