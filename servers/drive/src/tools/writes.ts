/**
 * The opt-in `files_write` toolset: create and update text files (uploads: the per-call root URL
 * keeps them on GDRIVE_API_URL), create folders, copy a file (files.copy), move and rename, move to
 * the trash. There is no
 * permanent delete: a trashed file can be restored from Drive's trash for 30 days. Under
 * --folders, both the file and the destination folder must be inside.
 */
import type { drive_v3 } from '@googleapis/drive';
import { z } from '@refmcp/shared/schema';
import { OPEN_WORLD_HINTS, ToolError } from '@refmcp/shared/server';
import { neutralizedField, respond, UntrustedText } from '@refmcp/shared/untrusted';
import type { Config } from '../config.js';
import { FILE_FIELDS, fileShape, GOOGLE, kindOf, toEntry } from '../format/files.js';
import { fileIdArg, fileIdOf } from '../names.js';
import type { DriveTool } from '../toolsets.js';
import { fileTool, getFile, scopeNote } from './common.js';

/** Largest text a write sends, in bytes. */
const MAX_CONTENT_BYTES = 5 * 1024 * 1024;

const TEXT_TYPES = ['text/plain', 'text/markdown', 'text/csv', 'text/html', 'application/json'] as const;

const resultShape = z.object({ file: fileShape, ...neutralizedField });

const content = () =>
  z
    .string()
    .max(MAX_CONTENT_BYTES)
    .describe(`The text (at most ${MAX_CONTENT_BYTES / 1024 / 1024} MB)`);
const name = (what: string) => z.string().min(1).max(1000).describe(what);

/** Validates a new file name (no control characters). */
function fileName(value: string, argument: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u001f\u007f]/.test(value) || !value.trim() || !value.isWellFormed())
    throw new ToolError(`${argument}: a file name needs visible characters and no control characters`);
  return value;
}

/**
 * Refuses to `verb` one of the --folders entries itself: trashing or moving it would take the
 * whole scope with it (renaming is allowed). Errors: ToolError naming file_id.
 */
function refuseScopeRoot(config: Config, id: string, verb: string): void {
  if (config.scope?.folders.has(id))
    throw new ToolError(
      `file_id: ${id} is one of the folders this server is limited to (--folders ${config.scope.description}); it cannot ${verb} it, only what is inside`,
    );
}

/** The answer to a write: the file as Drive now has it. */
function written(verb: string, file: drive_v3.Schema$File) {
  const text = new UntrustedText();
  const entry = toEntry(file, text);
  return respond(
    { file: entry },
    [
      `${verb} ${entry.name} — ${kindOf(entry.mimeType)}, id ${entry.id}${entry.parentId ? `, in folder ${entry.parentId}` : ''}.`,
    ],
    text,
  );
}

export function writeTools(config: Config): DriveTool[] {
  const scope = scopeNote(config);
  const { drive } = config;
  /** The parent for a new item: the argument, or My Drive's root (refused under --folders). */
  const parentOf = async (parent: string | undefined, signal: AbortSignal): Promise<string> => {
    if (parent) return fileIdOf(parent, 'parent_id');
    if (config.scope)
      throw new ToolError(
        `parent_id: required while --folders limits where files may be created (${config.scope.description})`,
      );
    void signal;
    return 'root';
  };

  return [
    fileTool(config, (a: { parent_id?: string }) => a.parent_id ?? 'root', 'parent_id', {
      name: 'create_file',
      title: 'Create text file',
      toolset: 'files_write',
      description: `Create a text file in a folder (default My Drive). type text/markdown with as_google_doc makes a Google Doc from Markdown.${scope}`,
      inputSchema: z.strictObject({
        name: name('File name, e.g. notes.md'),
        content: content(),
        parent_id: fileIdArg('Id or URL (default My Drive)').optional(),
        type: z.enum(TEXT_TYPES).optional().describe('MIME type of the content (default text/plain)'),
        as_google_doc: z
          .boolean()
          .optional()
          .describe('Convert to a Google Doc (text/plain, text/markdown or text/html)'),
      }),
      outputSchema: resultShape,
      annotations: OPEN_WORLD_HINTS.additive,
      handler: async (
        { name: fileNameArg, content: body, parent_id, type = 'text/plain', as_google_doc },
        { signal },
      ) => {
        const parent = await parentOf(parent_id, signal);
        const res = await drive.call<drive_v3.Schema$File>(
          'POST',
          'files.create (upload)',
          (o) =>
            drive.api.files.create(
              {
                requestBody: {
                  name: fileName(fileNameArg, 'name'),
                  parents: [parent],
                  mimeType: as_google_doc ? GOOGLE.doc : type,
                },
                media: { mimeType: type, body },
                supportsAllDrives: true,
                fields: FILE_FIELDS,
              },
              o,
            ),
          signal,
        );
        return written('Created', res.data);
      },
    }),
    fileTool(config, (a: { file_id: string }) => a.file_id, 'file_id', {
      name: 'update_file',
      title: 'Replace file content',
      toolset: 'files_write',
      description: `Replace the whole content of a text file (or a Google Doc, from Markdown or plain text) with new text. Drive keeps earlier versions.${scope}`,
      inputSchema: z.strictObject({
        file_id: fileIdArg(),
        content: content(),
        type: z
          .enum(TEXT_TYPES)
          .optional()
          .describe("MIME type of the content (default: the file's own, text/markdown for a Doc)"),
      }),
      outputSchema: resultShape,
      annotations: OPEN_WORLD_HINTS.destructiveIdempotent,
      handler: async ({ file_id, content: body, type }, { signal }) => {
        const id = fileIdOf(file_id);
        const file = await getFile(config, id, 'id,mimeType', signal);
        const own = file.mimeType ?? '';
        if (own.startsWith('application/vnd.google-apps.') && own !== GOOGLE.doc)
          throw new ToolError(
            `file_id: ${id} is a ${kindOf(own)}; only text files and Google Docs can be rewritten`,
          );
        const mimeType = type ?? (own === GOOGLE.doc ? 'text/markdown' : own || 'text/plain');
        const res = await drive.call<drive_v3.Schema$File>(
          'PATCH',
          `files.update ${id} (upload)`,
          (o) =>
            drive.api.files.update(
              { fileId: id, media: { mimeType, body }, supportsAllDrives: true, fields: FILE_FIELDS },
              o,
            ),
          signal,
        );
        return written('Updated', res.data);
      },
    }),
    fileTool(config, (a: { parent_id?: string }) => a.parent_id ?? 'root', 'parent_id', {
      name: 'create_folder',
      title: 'Create folder',
      toolset: 'files_write',
      description: `Create a folder inside another (default My Drive).${scope}`,
      inputSchema: z.strictObject({
        name: name('Folder name'),
        parent_id: fileIdArg('Parent folder id or URL (default: My Drive)').optional(),
      }),
      outputSchema: resultShape,
      annotations: OPEN_WORLD_HINTS.additive,
      handler: async ({ name: folderName, parent_id }, { signal }) => {
        const parent = await parentOf(parent_id, signal);
        const res = await drive.call<drive_v3.Schema$File>(
          'POST',
          'files.create (folder)',
          (o) =>
            drive.api.files.create(
              {
                requestBody: {
                  name: fileName(folderName, 'name'),
                  parents: [parent],
                  mimeType: GOOGLE.folder,
                },
                supportsAllDrives: true,
                fields: FILE_FIELDS,
              },
              o,
            ),
          signal,
        );
        return written('Created folder', res.data);
      },
    }),
    fileTool(config, (a: { file_id: string }) => a.file_id, 'file_id', {
      name: 'copy_file',
      title: 'Copy file',
      toolset: 'files_write',
      description: `Copy a file (not a folder) into a folder (default: the original's).${scope}`,
      inputSchema: z.strictObject({
        file_id: fileIdArg(),
        parent_id: fileIdArg("Id or URL (default the original's folder)").optional(),
        name: name('Name of the copy (default "Copy of …")').optional(),
      }),
      outputSchema: resultShape,
      annotations: OPEN_WORLD_HINTS.additive,
      handler: async ({ file_id, parent_id, name: copyName }, { signal }) => {
        const id = fileIdOf(file_id);
        // Without parent_id Drive puts the copy beside the original, whose other parents may lie
        // outside --folders: under --folders the destination is required and checked.
        if (config.scope && !parent_id)
          throw new ToolError(
            `parent_id: required while --folders limits where files may be created (${config.scope.description})`,
          );
        const target = parent_id ? fileIdOf(parent_id, 'parent_id') : undefined;
        if (target) await config.scope?.check(target, signal);
        const res = await drive.call<drive_v3.Schema$File>(
          'POST',
          `files.copy ${id}`,
          (o) =>
            drive.api.files.copy(
              {
                fileId: id,
                requestBody: {
                  ...(target ? { parents: [target] } : {}),
                  ...(copyName ? { name: fileName(copyName, 'name') } : {}),
                },
                supportsAllDrives: true,
                fields: FILE_FIELDS,
              },
              o,
            ),
          signal,
        );
        return written('Created copy', res.data);
      },
    }),
    fileTool(config, (a: { file_id: string }) => a.file_id, 'file_id', {
      name: 'move_file',
      title: 'Move or rename',
      toolset: 'files_write',
      description: `Move a file or folder to another folder, rename it, or both.${scope}`,
      inputSchema: z.strictObject({
        file_id: fileIdArg(),
        new_parent_id: fileIdArg().optional(),
        new_name: name('New name').optional(),
      }),
      outputSchema: resultShape,
      annotations: OPEN_WORLD_HINTS.destructiveIdempotent,
      handler: async ({ file_id, new_parent_id, new_name }, { signal }) => {
        const id = fileIdOf(file_id);
        if (!new_parent_id && !new_name)
          throw new ToolError('new_parent_id: give new_parent_id, new_name or both');
        const target = new_parent_id ? fileIdOf(new_parent_id, 'new_parent_id') : undefined;
        if (target) refuseScopeRoot(config, id, 'move');
        if (target) await config.scope?.check(target, signal);
        const current = target ? await getFile(config, id, 'id,parents', signal) : undefined;
        const from = (current?.parents ?? []).filter((p) => p !== target);
        const res = await drive.call<drive_v3.Schema$File>(
          'PATCH',
          `files.update ${id}`,
          (o) =>
            drive.api.files.update(
              {
                fileId: id,
                ...(target
                  ? { addParents: target, ...(from.length ? { removeParents: from.join(',') } : {}) }
                  : {}),
                requestBody: new_name ? { name: fileName(new_name, 'new_name') } : {},
                supportsAllDrives: true,
                fields: FILE_FIELDS,
              },
              o,
            ),
          signal,
        );
        if (target) config.scope?.forget(id);
        return written(target && new_name ? 'Moved and renamed' : target ? 'Moved' : 'Renamed', res.data);
      },
    }),
    fileTool(config, (a: { file_id: string }) => a.file_id, 'file_id', {
      name: 'trash_file',
      title: 'Move to trash',
      toolset: 'files_write',
      description: `Move a file or folder to Drive's trash (restorable from the trash for 30 days; this server never deletes permanently).${scope}`,
      inputSchema: z.strictObject({ file_id: fileIdArg() }),
      outputSchema: resultShape,
      annotations: OPEN_WORLD_HINTS.destructiveIdempotent,
      confirm: (a) => `Move Drive file ${a.file_id} to Drive's trash (restorable there for 30 days)?`,
      handler: async ({ file_id }, { signal }) => {
        const id = fileIdOf(file_id);
        refuseScopeRoot(config, id, 'move to the trash');
        const res = await drive.call<drive_v3.Schema$File>(
          'PATCH',
          `files.update ${id} (trash)`,
          (o) =>
            drive.api.files.update(
              { fileId: id, requestBody: { trashed: true }, supportsAllDrives: true, fields: FILE_FIELDS },
              o,
            ),
          signal,
        );
        return written('Moved to trash', res.data);
      },
    }),
  ];
}
