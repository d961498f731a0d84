/**
 * Finding files: `search` (the reference's tool and argument; hits now carry ids, types, owners,
 * modified times and their Shared Drive, and a cursor), `list_folder` and `list_shared_drives`.
 * Every files.list searches all drives the credentials can see (`corpora=allDrives`), and under
 * --folders hits outside the folders are left out before anything of them is shown.
 */
import type { drive_v3 } from '@googleapis/drive';
import { z } from '@refmcp/shared/schema';
import {
  compact,
  count,
  defineTool,
  OPEN_WORLD_HINTS,
  queryKey,
  withResourceLinks,
} from '@refmcp/shared/server';
import { neutralizedField, respond, UntrustedText } from '@refmcp/shared/untrusted';
import { vendorCursor, vendorPosition } from '@refmcp/shared/upstream';
import type { Config } from '../config.js';
import { entryLine, FILE_FIELDS, type FileEntry, fileLinks, fileShape, toEntry } from '../format/files.js';
import { cursorArg, driveIdOf, fileIdArg, fileIdOf, limitArg } from '../names.js';
import { childrenQuery, searchQuery, searchText } from '../query.js';
import type { DriveTool } from '../toolsets.js';
import { ALL_DRIVES, fileTool, scopeNote, sharedDriveNames } from './common.js';

const LIST_FIELDS = `nextPageToken,incompleteSearch,files(${FILE_FIELDS})`;

const listShape = z.object({
  files: z.array(fileShape),
  nextCursor: z.string().optional().describe('Pass as cursor to get the next page'),
  omitted: count().optional().describe('Hits on this page left out because they are outside --folders'),
  ...neutralizedField,
});

/** One page of files.list for `q` (all drives, or one Shared Drive), filtered by --folders. */
async function listPage(
  config: Config,
  params: { q: string; driveId?: string; pageSize: number; pageToken?: string; orderBy?: string },
  what: string,
  signal: AbortSignal,
) {
  const { drive, scope } = config;
  const corpus = params.driveId
    ? { supportsAllDrives: true, includeItemsFromAllDrives: true, corpora: 'drive', driveId: params.driveId }
    : ALL_DRIVES;
  const res = await drive.call<drive_v3.Schema$FileList>(
    'GET',
    what,
    (o) =>
      drive.api.files.list(
        {
          q: params.q,
          pageSize: params.pageSize,
          fields: LIST_FIELDS,
          ...(params.pageToken ? { pageToken: params.pageToken } : {}),
          ...(params.orderBy ? { orderBy: params.orderBy } : {}),
          ...corpus,
        },
        o,
      ),
    signal,
  );
  let files = res.data.files ?? [];
  let omitted = 0;
  if (scope) {
    for (const f of files) if (f.id) scope.remember(f.id, f.parents, f.driveId);
    const allowed = await Promise.all(files.map((f) => (f.id ? scope.allows(f.id, signal) : false)));
    omitted = allowed.filter((a) => !a).length;
    files = files.filter((_, i) => allowed[i]);
  }
  return {
    files,
    next: res.data.nextPageToken ?? undefined,
    incomplete: res.data.incompleteSearch === true,
    omitted,
  };
}

/** The result of one page of files (search and list_folder). */
async function filesResult(
  config: Config,
  page: Awaited<ReturnType<typeof listPage>>,
  head: string,
  key: string,
  signal: AbortSignal,
) {
  const text = new UntrustedText();
  const entries: FileEntry[] = page.files.map((f) => toEntry(f, text));
  const drives = await sharedDriveNames(
    config,
    entries.flatMap((e) => (e.driveId ? [e.driveId] : [])),
    text,
    signal,
  );
  const nextCursor = vendorCursor(key, page.next ? { token: page.next } : undefined);
  const lines = [
    `${head}: ${entries.length} file${entries.length === 1 ? '' : 's'} on this page${page.incomplete ? ' (Drive says the search is incomplete)' : ''}.`,
    ...entries.map((e) => entryLine(e, drives)),
    page.omitted ? `${page.omitted} hit(s) outside --folders left out.` : '',
    nextCursor ? `More exist: call again with cursor: ${nextCursor}` : 'No more results.',
  ];
  // The page's first files as links to their gdrive:/// resources (MAX_RESOURCE_LINKS).
  return withResourceLinks(
    respond(
      compact({ files: entries, nextCursor, omitted: page.omitted || undefined }),
      lines.filter(Boolean),
      text,
    ),
    fileLinks(entries),
  );
}

export function listingTools(config: Config): DriveTool[] {
  const scope = scopeNote(config);
  return [
    defineTool({
      name: 'search',
      title: 'Search Drive',
      toolset: 'files',
      description: `Find files (Shared Drives too) whose name or text contains query's words, taken literally.${scope}`,
      inputSchema: z.strictObject({
        query: z.string().max(1000),
        drive_id: z.string().max(256).optional().describe('Only this Shared Drive'),
        limit: limitArg(100),
        cursor: cursorArg(),
      }),
      outputSchema: listShape,
      annotations: OPEN_WORLD_HINTS.readOnly,
      handler: async ({ query, drive_id, limit = 25, cursor }, { signal }) => {
        const text = searchText(query);
        const driveId = drive_id ? driveIdOf(drive_id) : undefined;
        const key = queryKey('search', { text, driveId, limit });
        const position = vendorPosition(cursor, key, 'the same query');
        const page = await listPage(
          config,
          {
            q: searchQuery(text),
            pageSize: limit,
            ...(driveId ? { driveId } : {}),
            ...(position && 'token' in position ? { pageToken: position.token } : {}),
          },
          'files.list (search)',
          signal,
        );
        return filesResult(
          config,
          page,
          `Files matching "${new UntrustedText().line(text, 200)}"`,
          key,
          signal,
        );
      },
    }),
    defineTool({
      name: 'recent_files',
      title: 'Recent files',
      toolset: 'files',
      description: `Files I modified or viewed, newest first; starred: only starred ones.${scope}`,
      inputSchema: z.strictObject({
        starred: z.boolean().optional(),
        limit: limitArg(100),
        cursor: cursorArg(),
      }),
      outputSchema: listShape,
      annotations: OPEN_WORLD_HINTS.readOnly,
      handler: async ({ starred, limit = 25, cursor }, { signal }) => {
        const key = queryKey('recent_files', { starred: starred === true, limit });
        const position = vendorPosition(cursor, key);
        const page = await listPage(
          config,
          {
            // Drive's `recency`: the latest of modifiedTime, modifiedByMeTime, viewedByMeTime, … (files.list orderBy).
            q: `trashed = false${starred ? ' and starred = true' : ''} and mimeType != 'application/vnd.google-apps.folder'`,
            pageSize: limit,
            orderBy: 'recency desc',
            ...(position && 'token' in position ? { pageToken: position.token } : {}),
          },
          'files.list (recent)',
          signal,
        );
        return filesResult(
          config,
          page,
          starred ? 'Starred files, most recent first' : 'Recent files',
          key,
          signal,
        );
      },
    }),
    fileTool(config, (a: { folder_id: string }) => a.folder_id, 'folder_id', {
      name: 'list_folder',
      title: 'List folder',
      toolset: 'files',
      description: `List a folder's files, folders first (a Shared Drive's id: its top level).${scope}`,
      inputSchema: z.strictObject({
        folder_id: fileIdArg('Id or URL; "root": My Drive'),
        limit: limitArg(100),
        cursor: cursorArg(),
      }),
      outputSchema: listShape,
      annotations: OPEN_WORLD_HINTS.readOnly,
      handler: async ({ folder_id, limit = 50, cursor }, { signal }) => {
        const folderId = fileIdOf(folder_id, 'folder_id');
        const key = queryKey('list_folder', { folderId, limit });
        const position = vendorPosition(cursor, key);
        const page = await listPage(
          config,
          {
            q: childrenQuery(folderId),
            pageSize: limit,
            orderBy: 'folder,name',
            ...(position && 'token' in position ? { pageToken: position.token } : {}),
          },
          `files.list (children of ${folderId})`,
          signal,
        );
        return filesResult(config, page, `Folder ${folderId}`, key, signal);
      },
    }),
    defineTool({
      name: 'list_shared_drives',
      title: 'List Shared Drives',
      toolset: 'files',
      description: 'Shared Drives I can see: browse one with list_folder, search one with drive_id.',
      inputSchema: z.strictObject({ limit: limitArg(100), cursor: cursorArg() }),
      outputSchema: z.object({
        drives: z.array(z.object({ id: z.string(), name: z.string() })),
        nextCursor: z.string().optional().describe('Pass as cursor to get the next page'),
        ...neutralizedField,
      }),
      annotations: OPEN_WORLD_HINTS.readOnly,
      handler: async ({ limit = 50, cursor }, { signal }) => {
        const { drive } = config;
        const key = queryKey('list_shared_drives', { limit });
        const position = vendorPosition(cursor, key);
        const res = await drive.call<drive_v3.Schema$DriveList>(
          'GET',
          'drives.list',
          (o) =>
            drive.api.drives.list(
              {
                pageSize: limit,
                fields: 'nextPageToken,drives(id,name)',
                ...(position && 'token' in position ? { pageToken: position.token } : {}),
              },
              o,
            ),
          signal,
        );
        const text = new UntrustedText();
        const all = (res.data.drives ?? []).map((d) => ({ id: d.id ?? '', name: text.line(d.name ?? '') }));
        const drives = config.scope ? all.filter((d) => config.scope?.folders.has(d.id)) : all;
        const nextCursor = vendorCursor(
          key,
          res.data.nextPageToken ? { token: res.data.nextPageToken } : undefined,
        );
        return respond(
          compact({ drives, nextCursor }),
          [
            `${drives.length} Shared Drive${drives.length === 1 ? '' : 's'} on this page${config.scope ? ' (inside --folders)' : ''}.`,
            ...drives.map((d) => `- ${d.name} — id ${d.id}`),
            nextCursor ? `More exist: call again with cursor: ${nextCursor}` : 'No more Shared Drives.',
          ],
          text,
        );
      },
    }),
  ];
}
