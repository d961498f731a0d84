// Google's error replies as Drive sends them: `{error: {code, message, errors: [{message, domain,
// reason, location?, locationType?}], status}}` (https://developers.google.com/drive/api/guides/handle-errors).
import { type FakeReply, Reply } from '../../fake-api/reply.js';

const STATUS: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  416: 'OUT_OF_RANGE',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
};

/** Options of {@link googleError}. */
export interface GoogleErrorOptions {
  /** The parameter or header the error is about ("q", "fileId", "Authorization"). */
  location?: string;
  locationType?: 'parameter' | 'header';
  domain?: string;
  headers?: Record<string, string>;
}

/** The reply Google sends for `code` with one `reason` (e.g. 404 "notFound"). */
export function googleError(
  code: number,
  reason: string,
  message: string,
  options: GoogleErrorOptions = {},
): FakeReply {
  const item: Record<string, string> = { message, domain: options.domain ?? 'global', reason };
  if (options.location) {
    item.location = options.location;
    item.locationType = options.locationType ?? 'parameter';
  }
  return {
    status: code,
    ...(options.headers ? { headers: options.headers } : {}),
    body: { error: { code, message, errors: [item], status: STATUS[code] ?? 'UNKNOWN' } },
  };
}

/** Throws {@link googleError} as a {@link Reply}. */
export function fail(code: number, reason: string, message: string, options: GoogleErrorOptions = {}): never {
  throw new Reply(googleError(code, reason, message, options));
}

/** Drive's 404 for a file the caller cannot see (also a Shared Drive file without supportsAllDrives). */
export function fileNotFound(fileId: string): never {
  fail(404, 'notFound', `File not found: ${fileId}.`, { location: 'fileId' });
}

/** Drive's 400 for a `q` it cannot parse (DR-03). */
export function invalidQuery(): never {
  fail(400, 'invalid', 'Invalid Value', { location: 'q' });
}

/** Drive's 400 for a bad parameter value. */
export function invalidParameter(name: string, message = `Invalid value for: ${name}`): never {
  fail(400, 'invalidParameter', message, { location: name });
}
