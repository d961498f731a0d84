// Drive's JSON shapes (Schema$File, Schema$Drive, Schema$Permission, Schema$User) rendered from
// the fake's records, with every field the fake knows; `fields` then cuts them down (fields.ts).
import { createHash } from 'node:crypto';
import { type DriveRecord, EXPORT_FORMATS, type FileRecord, ME, type PermissionRecord } from './state.js';

/** The real id behind the `root` alias (the user's My Drive). */
export const ROOT_ID = '0AMyDriveRootFolder';

/** File extensions docs.google.com's export links use, by export MIME type. */
export const EXPORT_EXTENSIONS: Record<string, string> = {
  'text/markdown': 'md',
  'text/plain': 'txt',
  'text/html': 'html',
  'text/csv': 'csv',
  'image/png': 'png',
};

const KIND_PATH: Record<string, string> = {
  'application/vnd.google-apps.document': 'documents',
  'application/vnd.google-apps.spreadsheet': 'spreadsheets',
  'application/vnd.google-apps.presentation': 'presentations',
  'application/vnd.google-apps.drawing': 'drawings',
};

/** The export link of `file` (at `revision`, when given) as `mimeType` on the docs host `docsOrigin`. */
export function exportLink(
  docsOrigin: string,
  file: FileRecord,
  mimeType: string,
  revision?: string,
): string {
  const q = new URLSearchParams({
    id: file.id,
    ...(revision ? { revision } : {}),
    exportFormat: EXPORT_EXTENSIONS[mimeType] ?? mimeType,
  });
  return `${docsOrigin}/feeds/download/${KIND_PATH[file.mimeType] ?? 'documents'}/export/Export?${q}`;
}

/** Schema$User of the fake's user. */
export function meUser() {
  return {
    kind: 'drive#user',
    displayName: ME.displayName,
    emailAddress: ME.email,
    me: true,
    permissionId: ME.permissionId,
  };
}

/** Schema$File with every field the fake knows for `file`. */
export function fileJson(file: FileRecord, docsOrigin: string): Record<string, unknown> {
  const out: Record<string, unknown> = {
    kind: 'drive#file',
    id: file.id,
    name: file.name,
    mimeType: file.mimeType,
    parents: file.parents,
    trashed: file.trashed,
    explicitlyTrashed: file.trashed,
    starred: file.starred,
    createdTime: file.createdTime,
    modifiedTime: file.modifiedTime,
    version: String(file.version),
    spaces: ['drive'],
    webViewLink: `${docsOrigin}/open?id=${file.id}`,
    permissionIds: file.permissions.map((p) => p.id),
    shared: file.permissions.length > 1,
    lastModifyingUser: meUser(),
  };
  if (file.description !== undefined) out.description = file.description;
  if (file.shortcut) out.shortcutDetails = { ...file.shortcut };
  if (file.driveId) {
    out.driveId = file.driveId;
  } else {
    out.owners = [meUser()];
    out.ownedByMe = true;
  }
  if (file.content) {
    out.size = String(file.content.length);
    out.md5Checksum = createHash('md5').update(file.content).digest('hex');
    out.webContentLink = `${docsOrigin}/uc?id=${file.id}&export=download`;
  }
  const formats = EXPORT_FORMATS[file.mimeType];
  if (formats)
    out.exportLinks = Object.fromEntries(
      [...new Set([...formats, ...Object.keys(file.exports ?? {})])].map((m) => [
        m,
        exportLink(docsOrigin, file, m),
      ]),
    );
  return out;
}

/** Schema$Drive of `drive`. */
export function driveJson(drive: DriveRecord): Record<string, unknown> {
  return {
    kind: 'drive#drive',
    id: drive.id,
    name: drive.name,
    createdTime: drive.createdTime,
    hidden: drive.hidden,
  };
}

/** Schema$Permission of `permission`. */
export function permissionJson(permission: PermissionRecord): Record<string, unknown> {
  return { kind: 'drive#permission', ...permission };
}
