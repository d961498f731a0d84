import type { ExtractFailure } from './types.js';

/** A document that cannot be read, with why (the failure kind) and a message for the model. */
export class ExtractError extends Error {
  override name = 'ExtractError';
  constructor(
    readonly failure: ExtractFailure,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Why a parser failed, as a short phrase for the model: a library's own message, on one line and
 * at most 160 characters; a JavaScript runtime error inside the library (a TypeError, RangeError
 * such as "Maximum call stack size exceeded", …) says only that the content is malformed, since
 * its text describes the library's code, not the document.
 */
export function parserReason(error: unknown): string {
  if (
    error instanceof TypeError ||
    error instanceof RangeError ||
    error instanceof ReferenceError ||
    error instanceof EvalError
  ) {
    return 'malformed content the parser could not follow';
  }
  const message = error instanceof Error ? error.message : String(error);
  const line = message
    .replace(/\p{Cc}+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return line.length > 160 ? `${line.slice(0, 159)}…` : line || 'unknown error';
}
