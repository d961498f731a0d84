// files.list, files.get (metadata and alt=media), files.export, files.update (metadata),
// files.copy and files.create (metadata only; uploads are in routes-upload.ts).
import { fail, invalidParameter, invalidQuery } from './errors.js';
import type { FakeDrive } from './fake-drive.js';
import { requireContent, requireWrite } from './fake-drive.js';
import { selectFields } from './fields.js';
import { drivePage, jsonBody, lookupFile, mediaReply } from './http.js';
import { fileJson, ROOT_ID } from './objects.js';
import { InvalidQuery, type Predicate, parseQuery } from './query.js';
import { EXPORT_FORMATS, EXPORT_SIZE_LIMIT, type FileRecord, GOOGLE_TYPES } from './state.js';

/** Drive's default partial responses (v3 answers only these without `fields`). */
export const DEFAULT_FILE_FIELDS = 'kind,id,name,mimeType';
const DEFAULT_LIST_FIELDS = 'kind,incompleteSearch,nextPageToken,files(kind,id,name,mimeType)';

const CORPORA = ['user', 'drive', 'allDrives', 'domain'];
const ORDER_KEYS = [
  'createdTime',
  'folder',
  'modifiedTime',
  'name',
  'name_natural',
  'starred',
  'viewedByMeTime',
  'recency',
];

function textOf(file: FileRecord): string {
  const parts = [file.name, file.description ?? ''];
  if (file.content && file.content.length <= 1_000_000) parts.push(file.content.toString('utf8'));
  for (const [type, bytes] of Object.entries(file.exports ?? {}))
    if (type.startsWith('text/') && bytes.length <= 1_000_000) parts.push(bytes.toString('utf8'));
  return parts.join('\n');
}

function compareBy(orderBy: string | null): (a: FileRecord, b: FileRecord) => number {
  if (!orderBy) return () => 0;
  const keys = orderBy.split(',').map((k) => {
    const [key, dir] = k.trim().split(/\s+/);
    if (!key || !ORDER_KEYS.includes(key) || (dir && dir !== 'desc' && dir !== 'asc'))
      invalidParameter('orderBy', 'Invalid Value');
    return { key, sign: dir === 'desc' ? -1 : 1 };
  });
  const value = (f: FileRecord, key: string): string =>
    key === 'folder'
      ? String(f.mimeType !== GOOGLE_TYPES.folder)
      : key.startsWith('name')
        ? f.name.toLowerCase()
        : // The fake keeps no view times: recency and viewedByMeTime order by modification.
          key === 'modifiedTime' || key === 'recency' || key === 'viewedByMeTime'
          ? f.modifiedTime
          : key === 'starred'
            ? String(!f.starred)
            : f.createdTime;
  return (a, b) => {
    for (const { key, sign } of keys) {
      const x = value(a, key);
      const y = value(b, key);
      if (x !== y) return x < y ? -sign : sign;
    }
    return 0;
  };
}

/** Which files a files.list request sees (corpora, driveId, Shared Drive flags). */
function corpusFilter(drive: FakeDrive, q: URLSearchParams): (f: FileRecord) => boolean {
  const corpora = q.get('corpora') ?? (q.get('driveId') ? 'drive' : 'user');
  if (!CORPORA.includes(corpora)) invalidParameter('corpora', 'Invalid Value');
  const driveId = q.get('driveId');
  const allDrives = q.get('includeItemsFromAllDrives') === 'true' && q.get('supportsAllDrives') === 'true';
  if (corpora === 'drive') {
    if (!driveId)
      fail(400, 'invalid', 'The driveId parameter must be specified when corpora is drive.', {
        location: 'driveId',
      });
    if (!allDrives)
      fail(
        403,
        'teamDrivesParameterNotEnabled',
        'The includeItemsFromAllDrives and supportsAllDrives parameters must be set to true when driveId is specified.',
        { location: 'includeItemsFromAllDrives' },
      );
    if (!drive.state.drives.has(driveId))
      fail(404, 'notFound', `Shared drive not found: ${driveId}`, { location: 'driveId' });
    return (f) => f.driveId === driveId;
  }
  if (driveId)
    fail(400, 'invalid', 'The corpora parameter must be drive when driveId is specified.', {
      location: 'corpora',
    });
  return (f) => !f.driveId || (corpora === 'allDrives' && allDrives);
}

/** Registers the file routes. */
export function registerFileRoutes(drive: FakeDrive): void {
  const { state } = drive;
  const docs = () => drive.docs.url;

  drive.route('GET', '/drive/v3/files', (req) => {
    const q = req.query.get('q');
    let predicate: Predicate = () => true;
    if (q !== null) {
      try {
        predicate = parseQuery(q);
      } catch (error) {
        if (error instanceof InvalidQuery) invalidQuery();
        throw error;
      }
    }
    const inCorpus = corpusFilter(drive, req.query);
    const hits = [...state.files.values()]
      .filter((f) => f.id !== ROOT_ID && !state.drives.has(f.id) && inCorpus(f))
      .filter((f) =>
        predicate({
          name: f.name,
          mimeType: f.mimeType,
          parents: f.parents.flatMap((p) => (p === ROOT_ID ? [p, 'root'] : [p])),
          trashed: f.trashed,
          starred: f.starred,
          fullText: textOf(f),
        }),
      )
      .sort(compareBy(req.query.get('orderBy')));
    const page = drivePage(req, hits, 100, 1000);
    const full = {
      kind: 'drive#fileList',
      incompleteSearch: false,
      files: page.items.map((f) => fileJson(f, docs())),
      ...(page.next ? { nextPageToken: page.next } : {}),
    };
    return { body: selectFields(full, 'FileList', req.query.get('fields'), DEFAULT_LIST_FIELDS) };
  });

  drive.route('GET', '/drive/v3/files/:fileId', (req, who) => {
    const file = lookupFile(state, req, req.params.fileId as string);
    if (req.query.get('alt') === 'media') {
      requireContent(who);
      if (!file.content)
        fail(
          403,
          'fileNotDownloadable',
          'Only files with binary content can be downloaded. Use Export with Docs Editors files.',
          { location: 'alt' },
        );
      return mediaReply(req, file.content, file.mimeType);
    }
    return {
      body: selectFields(fileJson(file, docs()), 'File', req.query.get('fields'), DEFAULT_FILE_FIELDS),
    };
  });

  drive.route('GET', '/drive/v3/files/:fileId/export', (req, who) => {
    // files.export has no supportsAllDrives parameter: Shared Drive files export without it.
    const file = lookupFile(state, req, req.params.fileId as string, false);
    requireContent(who);
    const mimeType = req.query.get('mimeType');
    if (!mimeType) fail(400, 'required', 'Required parameter: mimeType', { location: 'mimeType' });
    const formats = EXPORT_FORMATS[file.mimeType];
    if (!formats) fail(403, 'fileNotExportable', 'Export only supports Docs Editors files.');
    const bytes = file.exports?.[mimeType];
    if (!formats.includes(mimeType) || !bytes)
      fail(400, 'badRequest', 'The requested conversion is not supported.', { location: 'convertTo' });
    if (bytes.length > EXPORT_SIZE_LIMIT)
      fail(403, 'exportSizeLimitExceeded', 'This file is too large to be exported.');
    return mediaReply(req, bytes, mimeType);
  });

  drive.route('PATCH', '/drive/v3/files/:fileId', (req, who) => {
    requireWrite(who);
    const file = lookupFile(state, req, req.params.fileId as string);
    applyUpdate(drive, req.query, file, jsonBody(req.body, 'File'));
    return {
      body: selectFields(fileJson(file, docs()), 'File', req.query.get('fields'), DEFAULT_FILE_FIELDS),
    };
  });

  drive.route('POST', '/drive/v3/files', (req, who) => {
    requireWrite(who);
    const file = createFile(drive, req.query, jsonBody(req.body, 'File'));
    return {
      body: selectFields(fileJson(file, docs()), 'File', req.query.get('fields'), DEFAULT_FILE_FIELDS),
    };
  });

  drive.route('POST', '/drive/v3/files/:fileId/copy', (req, who) => {
    requireWrite(who);
    const source = lookupFile(state, req, req.params.fileId as string);
    if (source.mimeType === GOOGLE_TYPES.folder)
      fail(403, 'cannotCopyFile', 'This file cannot be copied by the user.');
    const meta = jsonBody(req.body, 'File');
    const copy = createFile(drive, req.query, {
      name: `Copy of ${source.name}`,
      mimeType: source.mimeType,
      parents: source.parents,
      ...meta,
    });
    if (source.content) copy.content = Buffer.from(source.content);
    if (source.exports) copy.exports = { ...source.exports };
    return {
      body: selectFields(fileJson(copy, docs()), 'File', req.query.get('fields'), DEFAULT_FILE_FIELDS),
    };
  });
}

/** The parents `ids` as records `query` may use (404 for missing or invisible Shared Drive parents). */
function parentRecords(drive: FakeDrive, query: URLSearchParams, ids: string[]): FileRecord[] {
  const supports = query.get('supportsAllDrives') === 'true';
  return ids.map((id) => {
    const parent = drive.state.files.get(id === 'root' ? ROOT_ID : id);
    if (!parent || (parent.driveId && !supports))
      fail(404, 'notFound', `File not found: ${id}.`, { location: 'parents' });
    if (parent.mimeType !== GOOGLE_TYPES.folder)
      fail(400, 'invalid', `The parent ${id} is not a folder.`, { location: 'parents' });
    return parent;
  });
}

/** A new file from a files.create body (metadata fields of Schema$File). */
export function createFile(
  drive: FakeDrive,
  query: URLSearchParams,
  meta: Record<string, unknown>,
): FileRecord {
  const parentIds =
    Array.isArray(meta.parents) && meta.parents.length ? (meta.parents as string[]) : [ROOT_ID];
  if (parentIds.length > 1) fail(403, 'cannotAddParent', 'Increasing the number of parents is not allowed.');
  const [parent] = parentRecords(drive, query, parentIds);
  const file = drive.state.addFile({
    ...(typeof meta.id === 'string' ? { id: meta.id } : {}),
    name: typeof meta.name === 'string' ? meta.name : 'Untitled',
    mimeType: typeof meta.mimeType === 'string' ? meta.mimeType : 'application/octet-stream',
    parents: [parent?.id ?? ROOT_ID],
    ...(parent?.driveId ? { driveId: parent.driveId } : {}),
    ...(typeof meta.description === 'string' ? { description: meta.description } : {}),
    starred: meta.starred === true,
  });
  if (file.mimeType === GOOGLE_TYPES.doc) file.exports ??= {};
  return file;
}

/** Applies a files.update body and `addParents`/`removeParents` to `file`. */
export function applyUpdate(
  drive: FakeDrive,
  query: URLSearchParams,
  file: FileRecord,
  meta: Record<string, unknown>,
): void {
  if ('parents' in meta)
    fail(403, 'fieldNotWritable', 'The resource body includes fields which are not directly writable.', {
      location: 'parents',
    });
  const add = (query.get('addParents') ?? '').split(',').filter(Boolean);
  const remove = (query.get('removeParents') ?? '')
    .split(',')
    .filter(Boolean)
    .map((p) => (p === 'root' ? ROOT_ID : p));
  const added = parentRecords(drive, query, add);
  for (const id of remove)
    if (!file.parents.includes(id))
      fail(400, 'invalid', `The parent ${id} is not a parent of this file.`, { location: 'removeParents' });
  let parents = file.parents.filter((p) => !remove.includes(p));
  for (const p of added) if (!parents.includes(p.id)) parents = [...parents, p.id];
  if (parents.length > 1) fail(403, 'cannotAddParent', 'Increasing the number of parents is not allowed.');
  file.parents = parents;
  if (typeof meta.name === 'string') file.name = meta.name;
  if (typeof meta.description === 'string') file.description = meta.description;
  if (typeof meta.trashed === 'boolean') file.trashed = meta.trashed;
  if (typeof meta.starred === 'boolean') file.starred = meta.starred;
  if (typeof meta.mimeType === 'string') file.mimeType = meta.mimeType;
  file.version++;
  file.modifiedTime = new Date().toISOString();
}
