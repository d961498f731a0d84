/**
 * Drive's identifiers: a file id (letters, digits, `-` and `_`; My Drive's root is `root`), also
 * found inside the URLs people paste (docs.google.com/document/d/<id>/edit,
 * drive.google.com/file/d/<id>/view, …/drive/folders/<id>, …/open?id=<id>), and a Shared Drive
 * id. Checked before any request, so no model-supplied text reaches a URL path unchecked.
 */

import { z } from '@refmcp/shared/schema';
import { ToolError } from '@refmcp/shared/server';

const ID = /^[A-Za-z0-9_-]{1,256}$/;
const URL_ID = /\/(?:d|folders)\/([A-Za-z0-9_-]+)/;

/** The file id in `value` (an id or a Drive/Docs URL). Errors: ToolError naming `argument`. */
export function fileIdOf(value: string, argument = 'file_id'): string {
  const text = value.trim();
  if (ID.test(text)) return text;
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  if (url && /(^|\.)google\.com$/.test(url.hostname)) {
    const id = URL_ID.exec(url.pathname)?.[1] ?? url.searchParams.get('id') ?? '';
    if (ID.test(id)) return id;
  }
  throw new ToolError(
    `${argument}: not a Drive file id or a Drive/Docs URL (an id is letters, digits, - and _, e.g. 1AbC_dEf-2; a URL looks like https://docs.google.com/document/d/<id>/edit)`,
  );
}

/** A Shared Drive id. Errors: ToolError naming `argument`. */
export function driveIdOf(value: string, argument = 'drive_id'): string {
  if (ID.test(value)) return value;
  throw new ToolError(`${argument}: not a Shared Drive id (letters, digits, - and _)`);
}

/** The `file_id` argument: an id or a URL. */
export const fileIdArg = (what = 'File id, or its Drive/Docs URL') =>
  z.string().min(1).max(2048).describe(what);

/** A cursor argument. */
export const cursorArg = () =>
  z.string().max(8192).optional().describe('nextCursor from the previous page, to get the next one');

/** A page-size argument. */
export const limitArg = (fallback: number, max: number) =>
  z
    .number()
    .int()
    .min(1)
    .max(max)
    .optional()
    .describe(`Results per page (default ${fallback}, at most ${max})`);
