// The stand-in for docs.google.com: what a file's `exportLinks` and `webContentLink` point at.
// Not part of Drive's API (so a plain fake, outside the spec check): it serves exports of any
// size — the way around files.export's 10 MB limit — and downloads, to a valid bearer token.
import type { FakeApi } from '../../fake-api/server.js';
import { bearerOf } from './fake-drive.js';
import { mediaReply } from './http.js';
import { EXPORT_EXTENSIONS } from './objects.js';
import type { DriveState } from './state.js';

const MIME_OF_EXTENSION = Object.fromEntries(Object.entries(EXPORT_EXTENSIONS).map(([m, e]) => [e, m]));

/** Registers the export-link and download routes on `docs` (401/404 as plain text, as docs.google.com answers). */
export function registerDocsRoutes(docs: FakeApi, state: DriveState): void {
  const authorised = (req: Parameters<Parameters<FakeApi['route']>[2]>[0]) => {
    const token = state.accessTokens.get(bearerOf(req) ?? '');
    return token !== undefined && token.expiresAt > Date.now();
  };
  const denied = { status: 401, headers: { 'content-type': 'text/html' }, raw: 'Unauthorized' };
  const missing = { status: 404, headers: { 'content-type': 'text/html' }, raw: 'Not Found' };
  docs.route('GET', '/feeds/download/:kind/export/Export', (req) => {
    if (!authorised(req)) return denied;
    const file = state.files.get(req.query.get('id') ?? '');
    const format = req.query.get('exportFormat') ?? '';
    const mimeType = MIME_OF_EXTENSION[format] ?? format;
    const revision = req.query.get('revision');
    const source = revision ? file?.revisions?.find((r) => r.id === revision) : file;
    const bytes = source?.exports?.[mimeType];
    return bytes ? mediaReply(req, bytes, mimeType) : missing;
  });
  docs.route('GET', '/uc', (req) => {
    if (!authorised(req)) return denied;
    const file = state.files.get(req.query.get('id') ?? '');
    return file?.content ? mediaReply(req, file.content, file.mimeType) : missing;
  });
}
