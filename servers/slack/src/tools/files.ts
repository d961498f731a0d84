/**
 * slack_read_file: the content of a file shared in Slack — a PDF, Office document, spreadsheet,
 * presentation or image — through @refmcp/shared/documents. The file is looked up with files.info
 * and read only when it is shared in a channel SLACK_CHANNEL_IDS allows (when set); it is downloaded
 * from its url_private_download with the token, under the same HTTP policy and response-size cap
 * as every API call.
 */
import {
  DEFAULT_MAX_RESPONSE_BYTES,
  defineTool,
  OPEN_WORLD_HINTS,
  outOfScope,
  ToolError,
} from '@refmcp/shared';
import { documentInputShape, readDocument } from '@refmcp/shared/documents';
import { z } from '@refmcp/shared/schema';
import { UntrustedText } from '@refmcp/shared/untrusted';
import type { Config } from '../config.js';
import type { SlackTool } from '../toolsets.js';

interface RawFileInfo {
  id?: string;
  name?: string;
  mimetype?: string;
  size?: number;
  mode?: string;
  url_private_download?: string;
  channels?: string[];
  groups?: string[];
  ims?: string[];
  shares?: { public?: Record<string, unknown>; private?: Record<string, unknown> };
}

/** Largest file downloaded: the API's own response-size cap. */
export const MAX_FILE_BYTES = DEFAULT_MAX_RESPONSE_BYTES;

/** Conversations the file is shared in, as files.info lists them. */
function sharedIn(file: RawFileInfo): string[] {
  const ids = [
    ...(file.channels ?? []),
    ...(file.groups ?? []),
    ...(file.ims ?? []),
    ...Object.keys(file.shares?.public ?? {}),
    ...Object.keys(file.shares?.private ?? {}),
  ];
  return [...new Set(ids.filter((id) => typeof id === 'string'))];
}

export function fileTools(config: Config): SlackTool[] {
  return [
    defineTool({
      name: 'slack_read_file',
      title: 'Read a shared file',
      toolset: 'channels',
      heartbeat: 'reading the file',
      description:
        'Read a file shared in Slack by its id (F…, listed with messages): PDF text by page, Word as Markdown, ' +
        'spreadsheets as tables, slides with notes, images. Long files: continue with cursor.',
      inputSchema: z.strictObject({
        file_id: z
          .string()
          .regex(/^F[A-Z0-9]{2,30}$/, 'a Slack file ID: F followed by capitals and digits')
          .describe('File ID (F…)'),
        ...documentInputShape,
      }),
      annotations: OPEN_WORLD_HINTS.readOnly,
      handler: async ({ file_id, pages, cursor }, { signal }) => {
        const answer = await config.slack.call('files.info', { file: file_id, count: 1 }, { signal });
        const file = (answer.file ?? {}) as RawFileInfo;
        const channels = sharedIn(file);
        if (config.channels) {
          const fence = config.channels;
          if (!channels.some((id) => fence.allows(id))) {
            throw outOfScope(`File ${file_id}`, 'channels', 'SLACK_CHANNEL_IDS', fence.description);
          }
        }
        const name = new UntrustedText().line(file.name || file_id, 200);
        if (file.mode === 'external' || !file.url_private_download) {
          throw new ToolError(
            `${name} (${file_id}) is not hosted by Slack (an external or link file): it cannot be downloaded`,
          );
        }
        if (typeof file.size === 'number' && file.size > MAX_FILE_BYTES) {
          throw new ToolError(
            `${name} (${file_id}) is ${file.size} bytes, over the ${MAX_FILE_BYTES}-byte limit for downloads`,
          );
        }
        const bytes = await config.slack.download(file.url_private_download, MAX_FILE_BYTES, signal);
        return readDocument({
          bytes,
          mediaType: file.mimetype ?? null,
          name: file.name ?? null,
          source: `${name} (${file_id})`,
          id: file_id,
          ...(pages ? { pages } : {}),
          ...(cursor ? { cursor } : {}),
          continueWith: (next) => `call slack_read_file again with file_id ${file_id} and cursor "${next}"`,
          options: { signal },
        });
      },
    }),
  ];
}
