/**
 * Drive's identifiers: a file id (letters, digits, `-` and `_`; My Drive's root is `root`), also
 * found inside the URLs people paste (docs.google.com/document/d/<id>/edit,
 * drive.google.com/file/d/<id>/view, …/drive/folders/<id>, …/open?id=<id>), and a Shared Drive
 * id. Checked before any request, so no model-supplied text reaches a URL path unchecked.
 */

import { advertisedAs, z } from '@refmcp/shared/schema';
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

// Every byte of a tool's definition is sent to the model each turn (DESIGN.md §2): bounds that go
// without saying are enforced but not advertised (advertisedAs), and the cursor, which every
// result names when there is more, has no description.

/** The `file_id` argument: an id or a URL. */
export const fileIdArg = (what = 'Id or URL') =>
  advertisedAs(z.string().min(1).max(2048), { type: 'string' }).describe(what);

/** A cursor argument (each result says "call again with cursor: …" when there is more). */
export const cursorArg = () => z.string().max(8192).optional();

/**
 * A page size between 1 and `max`, advertised as its `maximum` only (14 bytes where "1-100, default
 * 25" took 35): the floor of a count goes without saying, the default page is whatever comes back
 * with its cursor, and both bounds are still enforced.
 */
export const limitArg = (max: number) =>
  advertisedAs(z.number().int().min(1).max(max), { type: 'integer', maximum: max }).optional();

/** A whole number from `min` (offsets, line numbers), bounds enforced, not advertised. */
export const countArg = (description: string, min: number, max: number) =>
  advertisedAs(z.number().int().min(min).max(max), { type: 'integer', description })
    .optional()
    .describe(description);
