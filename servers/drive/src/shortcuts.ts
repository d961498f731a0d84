/**
 * Shortcuts (application/vnd.google-apps.shortcut) have no content of their own: reading one reads
 * its target (`shortcutDetails.targetId`, developers.google.com/drive/api/guides/shortcuts) when
 * the target is inside --folders, one hop only (Drive does not let a shortcut point at a
 * shortcut). Otherwise the refusal names the target and why it is not read.
 */
import type { drive_v3 } from '@googleapis/drive';
import { ToolError } from '@refmcp/shared/server';
import type { Config } from './config.js';
import { isDriveError } from './drive/errors.js';
import { GOOGLE, kindOf } from './format/files.js';
import { getFile } from './tools/common.js';

/** The fields a read asks of a file: the listing fields and a shortcut's target. */
export const withShortcut = (fields: string): string => `${fields},shortcutDetails(targetId,targetMimeType)`;

/**
 * `file` itself, or — for a shortcut — its target read with `fields` (which must include
 * shortcutDetails). Errors: ToolError when the target is unnamed, outside --folders, gone or not
 * shared with these credentials, or itself a shortcut; Drive's other errors.
 */
export async function followShortcut(
  config: Config,
  file: drive_v3.Schema$File,
  fields: string,
  signal: AbortSignal,
): Promise<{ file: drive_v3.Schema$File; shortcut?: drive_v3.Schema$File }> {
  if (file.mimeType !== GOOGLE.shortcut) return { file };
  const target = file.shortcutDetails?.targetId;
  const kind = kindOf(file.shortcutDetails?.targetMimeType);
  if (!target)
    throw new ToolError(
      `${file.id} is a shortcut whose target Drive does not name: there is nothing to read`,
    );
  const gone = () =>
    new ToolError(
      `${file.id} is a shortcut to ${target} (${kind}), which is not found or not shared with these credentials`,
    );
  try {
    if (config.scope && !(await config.scope.allows(target, signal)))
      throw new ToolError(
        `${file.id} is a shortcut to ${target} (${kind}), which is outside --folders ${config.scope.description}: not followed. The operator can add the target's folder to --folders.`,
      );
    const read = await getFile(config, target, fields, signal);
    if (read.mimeType === GOOGLE.shortcut)
      throw new ToolError(`${file.id} is a shortcut to another shortcut (${target}): not followed`);
    return { file: read, shortcut: file };
  } catch (error) {
    if (isDriveError(error, 404)) throw gone();
    throw error;
  }
}
