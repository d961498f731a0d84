// What Drive's routes share: boolean parameters, file lookup with Shared Drive visibility
// (`supportsAllDrives`), media replies with Range support, request bodies checked against the
// generated schemas, and cursor pages in Drive's `nextPageToken` style.
import { validateJson } from '@refmcp/shared/json-schema';
import { cursorPage } from '../../fake-api/paging.js';
import type { FakeReply } from '../../fake-api/reply.js';
import type { FakeRequest } from '../../fake-api/server.js';
import { fail, fileNotFound, googleError, invalidParameter } from './errors.js';
import { ROOT_ID } from './objects.js';
import { loadDriveSpec } from './spec.js';
import type { DriveState, FileRecord } from './state.js';

/** A boolean query parameter as Google reads it ("true"/"false"; absent → `fallback`). */
export function flag(req: FakeRequest, name: string, fallback = false): boolean {
  const v = req.query.get(name);
  if (v === null) return fallback;
  if (v !== 'true' && v !== 'false')
    invalidParameter(
      name,
      `Invalid value '${v}'. Values must match the following regular expression: '(?i)(true|false)'`,
    );
  return v === 'true';
}

/**
 * The file `id` (`root` is My Drive's root) as `req` may see it: 404 `notFound` when it does not
 * exist, or lives in a Shared Drive and the request lacks `supportsAllDrives=true` (Drive's
 * behaviour, and the most reported failure of Drive servers). Methods without that parameter
 * (files.export) pass `sharedDriveFlag: false`: Drive cannot ask for what the method lacks.
 */
export function lookupFile(
  state: DriveState,
  req: FakeRequest,
  id: string,
  sharedDriveFlag = true,
): FileRecord {
  const file = state.files.get(id === 'root' ? ROOT_ID : id);
  if (!file) fileNotFound(id);
  if (sharedDriveFlag && file.driveId && !flag(req, 'supportsAllDrives') && !flag(req, 'supportsTeamDrives'))
    fileNotFound(id);
  return file;
}

/**
 * A media reply of `bytes` as `mimeType`: the whole body (200), or the `Range: bytes=a-b` /
 * `a-` / `-n` window (206 with Content-Range); an unsatisfiable range is 416.
 */
export function mediaReply(req: FakeRequest, bytes: Buffer, mimeType: string): FakeReply {
  const headers: Record<string, string> = { 'content-type': mimeType, 'accept-ranges': 'bytes' };
  const range = req.headers.range;
  const m = range ? /^bytes=(\d*)-(\d*)$/.exec(range.trim()) : null;
  if (!m || (m[1] === '' && m[2] === '')) return { status: 200, headers, raw: bytes };
  const size = bytes.length;
  let start: number;
  let end: number;
  if (m[1] === '') {
    start = Math.max(0, size - Number(m[2]));
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  if (start >= size || start > end)
    return googleError(416, 'requestedRangeNotSatisfiable', 'Request range not satisfiable', {
      headers: { 'content-range': `bytes */${size}` },
    });
  return {
    status: 206,
    headers: { ...headers, 'content-range': `bytes ${start}-${end}/${size}` },
    raw: bytes.subarray(start, end + 1),
  };
}

/**
 * `text` parsed as a JSON request body of `Schema$<type>` (closed: a field the API lacks is
 * refused as Drive refuses it, 400 `badRequest`). Empty → {}.
 */
export function jsonBody(text: string, type: string): Record<string, unknown> {
  if (!text.trim()) return {};
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    fail(400, 'parseError', 'Parse Error');
  }
  const { schemas } = loadDriveSpec();
  validateJson(schemas, null); // registers the definitions once (by $id)
  const problems = validateJson(
    { $id: `${schemas.$id}/request/${type}`, $ref: `${schemas.$id}#/$defs/${type}` },
    body,
  );
  if (problems.length) fail(400, 'badRequest', `Invalid ${type} body: ${problems[0]}`);
  return body as Record<string, unknown>;
}

/** One page of `items` in Drive's style: `pageSize` in 1..`max` (default `fallback`), `pageToken`. */
export function drivePage<T>(
  req: FakeRequest,
  items: T[],
  fallback: number,
  max: number,
): { items: T[]; next?: string } {
  const raw = req.query.get('pageSize');
  const size = raw === null ? undefined : Number(raw);
  if (size !== undefined && (!Number.isInteger(size) || size < 1 || size > max))
    invalidParameter('pageSize', `Invalid value '${raw}'. Values must be within the range: [1, ${max}]`);
  const page = cursorPage(items, {
    cursor: req.query.get('pageToken') ?? undefined,
    limit: size,
    defaultLimit: fallback,
    maxLimit: max,
    invalid: () => googleError(400, 'invalid', 'Invalid Value', { location: 'pageToken' }),
  });
  return { items: page.items, ...(page.next ? { next: page.next } : {}) };
}
