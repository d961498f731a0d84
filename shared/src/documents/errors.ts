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
