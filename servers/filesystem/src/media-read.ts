/**
 * read_media_file: a file as an MCP image or audio content block, or an embedded resource for other binary
 * content, bounded by a size limit checked before reading.
 */
import { pathToFileURL } from 'node:url';
import { type AllowedRoots, openInside } from '@refmcp/shared/paths';
import { ToolError, type ToolResult } from '@refmcp/shared/server';
import { formatBytes, quote } from './format.js';
import { SNIFF_BYTES } from './lines.js';
import { MEDIA_SNIFF_BYTES, mediaTypeOf } from './media.js';

/**
 * Reads `input` whole (at most `maxBytes`) and returns it base64-encoded: image/audio blocks for images and
 * audio, an embedded resource (blob; SVG as text) otherwise, followed by a one-line text caption. A text file
 * of unknown type is refused with a pointer to read_text_file. Errors: ToolError, PathError.
 */
export async function readMediaFile(
  roots: AllowedRoots,
  input: string,
  maxBytes: number,
  signal?: AbortSignal,
): Promise<ToolResult> {
  const { handle, path, stat } = await openInside(roots, input);
  try {
    if (stat.size > maxBytes) {
      throw new ToolError(
        `${quote(input)} is ${formatBytes(stat.size)}, over the ${formatBytes(maxBytes)} limit for read_media_file. ` +
          'Use get_file_info for its metadata, or a smaller (resized or trimmed) copy.',
      );
    }
    const data = await handle.readFile({ signal });
    const head = data.subarray(0, MEDIA_SNIFF_BYTES);
    const type = mediaTypeOf(path.real, head);
    const isText = !data.subarray(0, SNIFF_BYTES).includes(0);
    if (type.mimeType === 'application/octet-stream' && isText) {
      throw new ToolError(
        `${quote(input)} is not an image or audio file; it looks like text. Use read_text_file to read it.`,
      );
    }
    const caption = `${input}: ${type.mimeType}, ${formatBytes(stat.size)}`;
    const base64 = data.toString('base64');
    if (type.kind === 'image' || type.kind === 'audio') {
      return {
        content: [
          { type: type.kind, data: base64, mimeType: type.mimeType },
          { type: 'text', text: caption },
        ],
      };
    }
    const uri = pathToFileURL(path.real).href;
    const resource =
      type.mimeType === 'image/svg+xml' && isText
        ? { uri, mimeType: type.mimeType, text: data.toString('utf8') }
        : { uri, mimeType: type.mimeType, blob: base64 };
    const how =
      'text' in resource
        ? 'returned as an embedded resource holding its SVG (XML) text'
        : `returned as an embedded resource (base64 blob): it is not an image or audio, so it cannot be shown as one`;
    return {
      content: [
        { type: 'resource', resource },
        { type: 'text', text: `${caption} — ${how}.` },
      ],
    };
  } finally {
    await handle.close().catch(() => {});
  }
}
