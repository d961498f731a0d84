/**
 * `documents`: the one way a document's bytes (PDF, Word, spreadsheets, presentations, images)
 * become what a model reads — per page, sheet or slide, bounded in CPU, memory and output, parsed
 * in a worker thread under heap and time ceilings, nothing in the document executed or fetched,
 * all text untrusted. Servers bundle ./document-worker.ts as dist/document-worker.js.
 */
export { detectDocument, imageType, KIND_NAMES } from './detect.js';
export { ExtractError } from './errors.js';
export { type DocumentRead, documentInputShape, isDocument, readDocument } from './read.js';
export * from './render.js';
export { DOCUMENT_DEFAULTS, type ExtractOptions, extractDocument, setDocumentWorker } from './run.js';
export type * from './types.js';
