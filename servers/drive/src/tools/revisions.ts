/**
 * A file's earlier versions: `list_revisions` (revisions.list: id, time, who, size, whether kept
 * forever, the formats a Docs Editors revision exports to) and `read_revision` (one version's
 * text: a Doc, Sheet or Slides through the revision's export link, anything else through
 * revisions.get `alt=media`; content.ts readRevision), fenced by --folders before any request,
 * under the read budget with an offset to continue. Bytes that are not text are described, not
 * shown.
 */
import type { drive_v3 } from '@googleapis/drive';
import { advertisedAs, z } from '@refmcp/shared/schema';
import { count, OPEN_WORLD_HINTS, queryKey, ToolError, truncationMarker } from '@refmcp/shared/server';
import { block, neutralizedField, respond, UntrustedText } from '@refmcp/shared/untrusted';
import { vendorCursor, vendorPosition } from '@refmcp/shared/upstream';
import type { Config } from '../config.js';
import { readRevision, wholeCharsEnd } from '../content.js';
import { kindOf } from '../format/files.js';
import { cursorArg, fileIdArg, fileIdOf } from '../names.js';
import type { DriveTool } from '../toolsets.js';
import { fileTool, getFile, scopeNote } from './common.js';

/** Revisions listed per page (revisions.list pageSize; Drive allows 1000); `cursor` follows nextPageToken. */
const PAGE_SIZE = 200;

const revisionShape = z.object({
  id: z.string(),
  modifiedTime: z.string().optional(),
  modifiedBy: z.string().optional(),
  size: count().optional().describe('Bytes (binary files)'),
  keepForever: z.boolean().optional(),
  exportFormats: z.array(z.string()).optional().describe('Types a Docs Editors revision can be read as'),
});

export function revisionTools(config: Config): DriveTool[] {
  const scope = scopeNote(config);
  const { drive } = config;
  return [
    fileTool(config, (a: { file_id: string }) => a.file_id, 'file_id', {
      name: 'list_revisions',
      title: 'List revisions',
      toolset: 'files',
      description: `A file's earlier versions, oldest first.${scope}`,
      inputSchema: z.strictObject({ file_id: fileIdArg(), cursor: cursorArg() }),
      outputSchema: z.object({
        revisions: z.array(revisionShape),
        nextCursor: z.string().optional(),
        ...neutralizedField,
      }),
      annotations: OPEN_WORLD_HINTS.readOnly,
      handler: async ({ file_id, cursor }, { signal }) => {
        const id = fileIdOf(file_id);
        const key = queryKey('list_revisions', { id });
        const position = vendorPosition(cursor, key, 'the same file_id');
        const res = await drive.call<drive_v3.Schema$RevisionList>(
          'GET',
          `revisions.list ${id}`,
          (o) =>
            drive.api.revisions.list(
              {
                fileId: id,
                pageSize: PAGE_SIZE,
                ...(position && 'token' in position ? { pageToken: position.token } : {}),
                fields:
                  'nextPageToken,revisions(id,modifiedTime,lastModifyingUser(displayName),size,keepForever,exportLinks)',
              },
              o,
            ),
          signal,
        );
        const t = new UntrustedText();
        const revisions = (res.data.revisions ?? []).map((r) => {
          const formats = Object.keys(r.exportLinks ?? {});
          const by = r.lastModifyingUser?.displayName;
          return {
            id: r.id ?? '',
            ...(r.modifiedTime ? { modifiedTime: r.modifiedTime } : {}),
            ...(by ? { modifiedBy: t.line(by, 200) } : {}),
            ...(r.size ? { size: Number(r.size) } : {}),
            ...(r.keepForever ? { keepForever: true } : {}),
            ...(formats.length ? { exportFormats: formats } : {}),
          };
        });
        const nextCursor = vendorCursor(
          key,
          res.data.nextPageToken ? { token: res.data.nextPageToken } : undefined,
        );
        return respond(
          nextCursor ? { revisions, nextCursor } : { revisions },
          [
            `${revisions.length} revision(s) of ${id} on this page:`,
            ...revisions.map(
              (r) =>
                `- ${r.id} ${r.modifiedTime ?? ''}${r.modifiedBy ? ` by ${r.modifiedBy}` : ''}${r.size !== undefined ? `, ${r.size} bytes` : ''}${r.keepForever ? ', kept forever' : ''}`,
            ),
            nextCursor ? `More exist: call again with cursor: ${nextCursor}` : 'No more revisions.',
          ],
          t,
        );
      },
    }),
    fileTool(config, (a: { file_id: string }) => a.file_id, 'file_id', {
      name: 'read_revision',
      title: 'Read revision',
      toolset: 'files',
      description: `Read an earlier version of a file as text (a Doc as Markdown).${scope}`,
      inputSchema: z.strictObject({
        file_id: fileIdArg(),
        revision_id: advertisedAs(z.string().min(1).max(200), { type: 'string' }).describe(
          'From list_revisions',
        ),
        offset: count().optional().describe('Byte offset'),
      }),
      outputSchema: z.object({
        id: z.string(),
        revision: z.string(),
        contentType: z.string(),
        offset: count(),
        content: z.string().optional(),
        nextOffset: count().optional(),
        binary: z.boolean().optional(),
        ...neutralizedField,
      }),
      annotations: OPEN_WORLD_HINTS.readOnly,
      handler: async ({ file_id, revision_id, offset = 0 }, { signal }) => {
        const id = fileIdOf(file_id);
        if (!/^[\w.-]+$/.test(revision_id))
          throw new ToolError('revision_id: an id from list_revisions (letters, digits, _ . -)');
        const file = await getFile(config, id, 'id,name,mimeType', signal);
        const content = await readRevision(
          drive,
          file,
          revision_id,
          { offset, maxBytes: config.readBytes },
          signal,
        );
        const t = new UntrustedText();
        const name = t.line(file.name ?? id);
        const head = { id, revision: revision_id, contentType: content.mimeType, offset };
        if (!content.text)
          return respond({ ...head, binary: true }, [
            `Revision ${revision_id} of ${name} is ${content.mimeType} bytes, not text: its content is not shown.`,
          ]);
        const end = content.more ? wholeCharsEnd(content.bytes) : content.bytes.length;
        const body = t.code(
          content.bytes.subarray(0, end).toString('utf8'),
          config.readBytes,
          'read on with offset',
        );
        const next = content.more ? offset + end : undefined;
        return respond(
          { ...head, content: body, ...(next !== undefined ? { nextOffset: next } : {}) },
          [
            `${name} (${kindOf(file.mimeType ?? '')}) at revision ${revision_id}${content.mimeType !== file.mimeType ? ` as ${content.mimeType}` : ''}:`,
            block(`revision ${revision_id} of ${name}`, body),
            next !== undefined ? truncationMarker('more', `call again with offset: ${next}`) : '',
          ].filter(Boolean),
          t,
        );
      },
    }),
  ];
}
