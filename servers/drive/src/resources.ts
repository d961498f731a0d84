/**
 * Resources `gdrive:///<fileId>` (the reference's URIs): resources/list pages through every file
 * the credentials can see, 100 a page (the reference: 10) behind a cursor; resources/read returns
 * Docs as Markdown, Sheets as CSV, Slides as text, Drawings as a PNG blob (the reference put the
 * PNG's bytes in a text field), other text as text and the rest as a blob — each within a byte
 * budget (text cut with a marker; bytes over the budget described instead). Under --folders only
 * files inside are listed or read.
 */
import type { drive_v3 } from '@googleapis/drive';
import type { McpServer, Resource } from '@modelcontextprotocol/server';
import { z } from '@refmcp/shared/schema';
import {
  completionCacheFor,
  invalidParams,
  registerResourceSet,
  truncationMarker,
} from '@refmcp/shared/server';
import { UntrustedText } from '@refmcp/shared/untrusted';
import { fileIdCompleter } from './completions.js';
import type { Config } from './config.js';
import { readContent, wholeCharsEnd } from './content.js';
import { FILE_FIELDS, kindOf, RESOURCE_PREFIX } from './format/files.js';
import { fileIdOf } from './names.js';
import { withShortcut } from './shortcuts.js';
import { ALL_DRIVES, getFile } from './tools/common.js';

const PREFIX = RESOURCE_PREFIX;
/** Files per resources/list page. */
export const RESOURCE_PAGE = 100;

/** The file id of a `gdrive:///<id>` URI; -32602 for anything else. */
export function resourceFileId(uri: string): string {
  if (!uri.startsWith(PREFIX)) throw invalidParams(`Resource URI ${uri} is not gdrive:///<fileId>`, { uri });
  try {
    return fileIdOf(uri.slice(PREFIX.length), 'uri');
  } catch {
    throw invalidParams(`Resource URI ${uri} does not name a Drive file id`, { uri });
  }
}

/** Registers the gdrive:/// resource set on `server`. */
export function registerDriveResources(server: McpServer, config: Config): void {
  const { drive, scope } = config;
  registerResourceSet(server, {
    templates: [
      {
        uriTemplate: `${PREFIX}{fileId}`,
        name: 'Drive file',
        description:
          'A Google Drive file by id: Docs as Markdown, Sheets as CSV, Slides as text, Drawings as PNG',
        complete: { fileId: fileIdCompleter(config) },
      },
    ],
    completion: { cache: completionCacheFor(config) },
    list: {
      cursor: z.object({ t: z.string().min(1).max(4096) }),
      async page(after, ctx) {
        const signal = ctx.mcpReq.signal;
        const res = await drive.call<drive_v3.Schema$FileList>(
          'GET',
          'files.list (resources)',
          (o) =>
            drive.api.files.list(
              {
                q: "trashed = false and mimeType != 'application/vnd.google-apps.folder'",
                pageSize: RESOURCE_PAGE,
                fields: 'nextPageToken,files(id,name,mimeType,parents,driveId)',
                ...(after ? { pageToken: after.t } : {}),
                ...ALL_DRIVES,
              },
              o,
            ),
          signal,
        );
        let files = res.data.files ?? [];
        if (scope) {
          for (const f of files) if (f.id) scope.remember(f.id, f.parents, f.driveId);
          const allowed = await Promise.all(files.map((f) => (f.id ? scope.allows(f.id, signal) : false)));
          files = files.filter((_, i) => allowed[i]);
        }
        const text = new UntrustedText();
        const resources: Resource[] = files.map((f) => ({
          uri: `${PREFIX}${f.id}`,
          name: text.line(f.name ?? f.id ?? ''),
          ...(f.mimeType ? { mimeType: f.mimeType, description: kindOf(f.mimeType) } : {}),
        }));
        return { resources, ...(res.data.nextPageToken ? { next: { t: res.data.nextPageToken } } : {}) };
      },
    },
    async read(uri, ctx) {
      const signal = ctx.mcpReq.signal;
      const id = resourceFileId(uri);
      if (scope && !(await scope.allows(id, signal)))
        throw invalidParams(
          `${uri} is outside the folders this server may access (--folders ${scope.description})`,
          { uri },
        );
      // A shortcut's target is named in the refusal (its fields include shortcutDetails).
      const file = await getFile(config, id, withShortcut(FILE_FIELDS), signal);
      const content = await readContent(
        drive,
        file,
        { maxBytes: Math.max(config.readBytes, config.blobBytes) },
        signal,
      );
      if (content.text) {
        // A window cut inside a character ends before it (the marker's offset is where it starts).
        const end = content.more ? wholeCharsEnd(content.bytes) : content.bytes.length;
        let body = new UntrustedText().code(content.bytes.subarray(0, end).toString('utf8'));
        if (content.more)
          body += `\n${truncationMarker('more bytes', `call the read_file tool with file_id ${id} and offset: ${end}`)}`;
        return { contents: [{ uri, mimeType: content.mimeType, text: body }] };
      }
      if (content.more)
        return {
          contents: [
            {
              uri,
              mimeType: 'text/plain',
              text: `${id} is ${content.mimeType} bytes${content.size !== undefined ? ` (${content.size} bytes)` : ''}, over the ${config.blobBytes}-byte limit of one read; open it in Drive.`,
            },
          ],
        };
      return { contents: [{ uri, mimeType: content.mimeType, blob: content.bytes.toString('base64') }] };
    },
    secrets: config.secrets,
  });
}
