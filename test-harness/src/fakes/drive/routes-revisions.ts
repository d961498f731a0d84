// revisions.list and revisions.get of the fake Drive: a file's stored versions (seeded as
// `FileRecord.revisions`), a binary revision's bytes (`alt=media`), and a Google type's revision
// only through its `exportLinks` (docs host, `revision=` in the link) — Drive refuses `alt=media`
// on a Docs Editors revision ("Only files with binary content can be downloaded").
import { fail } from './errors.js';
import type { FakeDrive } from './fake-drive.js';
import { selectFields } from './fields.js';
import { drivePage, lookupFile, mediaReply } from './http.js';
import { exportLink, meUser } from './objects.js';
import type { FileRecord, RevisionRecord } from './state.js';

const DEFAULT_REVISION_FIELDS = 'kind,id,mimeType,modifiedTime';

export function registerRevisionRoutes(drive: FakeDrive): void {
  const { state } = drive;
  const google = (f: FileRecord) => f.mimeType.startsWith('application/vnd.google-apps.');
  const json = (f: FileRecord, r: RevisionRecord) => ({
    kind: 'drive#revision',
    id: r.id,
    mimeType: f.mimeType,
    modifiedTime: r.modifiedTime,
    keepForever: r.keepForever ?? false,
    lastModifyingUser: meUser(),
    ...(google(f)
      ? {
          exportLinks: Object.fromEntries(
            Object.keys(r.exports ?? {}).map((m) => [m, exportLink(drive.docs.url, f, m, r.id)]),
          ),
        }
      : { size: String(r.content?.length ?? 0) }),
  });
  const find = (f: FileRecord, id: string) => {
    const r = f.revisions?.find((x) => x.id === id);
    if (!r) fail(404, 'notFound', `Revision not found: ${id}.`, { location: 'revisionId' });
    return r;
  };

  drive.route('GET', '/drive/v3/files/:fileId/revisions', (req) => {
    const file = lookupFile(state, req, req.params.fileId as string, false);
    if (file.mimeType === 'application/vnd.google-apps.folder')
      fail(403, 'revisionsNotSupported', 'The file does not support revisions.');
    const page = drivePage(req, file.revisions ?? [], 200, 1000);
    const full = {
      kind: 'drive#revisionList',
      revisions: page.items.map((r) => json(file, r)),
      ...(page.next ? { nextPageToken: page.next } : {}),
    };
    const fields = req.query.get('fields');
    return {
      body: selectFields(full, 'RevisionList', fields, `kind,revisions(${DEFAULT_REVISION_FIELDS})`),
    };
  });

  drive.route('GET', '/drive/v3/files/:fileId/revisions/:revisionId', (req) => {
    const file = lookupFile(state, req, req.params.fileId as string, false);
    const revision = find(file, req.params.revisionId as string);
    if (req.query.get('alt') === 'media') {
      if (google(file))
        fail(
          403,
          'fileNotDownloadable',
          'Only files with binary content can be downloaded. Use Export with Docs Editors files.',
          { location: 'alt' },
        );
      return mediaReply(req, revision.content ?? Buffer.alloc(0), file.mimeType);
    }
    return {
      body: selectFields(json(file, revision), 'Revision', req.query.get('fields'), DEFAULT_REVISION_FIELDS),
    };
  });
}
