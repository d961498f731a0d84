/**
 * Completion of Drive files by name: `gdrive:///{fileId}` completes to the ids of files whose name
 * contains what was typed, the find_and_summarise prompt to their names. One files.list per answer
 * (non-trashed files other than folders, most recently modified first when nothing is typed), cut
 * off and cached by the shared mechanism (completion.ts); under --folders only files inside them
 * are offered.
 */
import type { drive_v3 } from '@googleapis/drive';
import { type Completer, type CompletionQuery, MAX_COMPLETION_VALUES } from '@refmcp/shared/server';
import type { Config } from './config.js';
import { literal } from './query.js';
import { ALL_DRIVES } from './tools/common.js';

const NOT_FOLDER = "mimeType != 'application/vnd.google-apps.folder' and trashed = false";

/** One page of files whose name contains the typed value, inside --folders; and whether there are more. */
async function filesNamed(config: Config, q: CompletionQuery) {
  const { drive, scope } = config;
  const typed = q.value.trim();
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u001f\u007f]/.test(typed) || !typed.isWellFormed()) return { files: [], more: false };
  const res = await drive.call<drive_v3.Schema$FileList>(
    'GET',
    'files.list (completion)',
    (o) =>
      drive.api.files.list(
        {
          q: typed ? `name contains ${literal(typed)} and ${NOT_FOLDER}` : NOT_FOLDER,
          pageSize: MAX_COMPLETION_VALUES,
          fields: 'nextPageToken,files(id,name,parents,driveId)',
          ...(typed ? {} : { orderBy: 'modifiedTime desc' }),
          ...ALL_DRIVES,
        },
        o,
      ),
    q.signal,
  );
  let files = res.data.files ?? [];
  if (scope) {
    for (const f of files) if (f.id) scope.remember(f.id, f.parents, f.driveId);
    const allowed = await Promise.all(files.map((f) => (f.id ? scope.allows(f.id, q.signal) : false)));
    files = files.filter((_, i) => allowed[i]);
  }
  return { files, more: Boolean(res.data.nextPageToken) };
}

/** File ids by name (for gdrive:///{fileId}). */
export function fileIdCompleter(config: Config): Completer {
  return async (q) => {
    const { files, more } = await filesNamed(config, q);
    const values = files.flatMap((f) => (f.id ? [f.id] : []));
    // Drive gives no count; when the one page is the last, what it held is the total.
    return { values, hasMore: more, ...(more ? {} : { total: values.length }) };
  };
}

/** File names (for the prompt's `name`), each once. */
export function fileNameCompleter(config: Config): Completer {
  return async (q) => {
    const { files, more } = await filesNamed(config, q);
    const values = [...new Set(files.flatMap((f) => (f.name ? [f.name] : [])))];
    return { values, hasMore: more, ...(more ? {} : { total: values.length }) };
  };
}
