/**
 * Compact renderings of Drive files: the fields a model needs to choose and read a file (id,
 * name, type, owners, modified time, size, the Shared Drive, the parent), Google's MIME types said
 * in words, names and descriptions through the untrusted-content builder. Export links, checksums,
 * permissions ids and capabilities are dropped.
 */
import type { drive_v3 } from '@googleapis/drive';
import { z } from '@refmcp/shared/schema';
import type { ResourceLink } from '@refmcp/shared/server';
import type { UntrustedText } from '@refmcp/shared/untrusted';

/** Google's own file types (developers.google.com/drive/api/guides/mime-types). */
export const GOOGLE = {
  doc: 'application/vnd.google-apps.document',
  sheet: 'application/vnd.google-apps.spreadsheet',
  slides: 'application/vnd.google-apps.presentation',
  drawing: 'application/vnd.google-apps.drawing',
  folder: 'application/vnd.google-apps.folder',
  shortcut: 'application/vnd.google-apps.shortcut',
} as const;

const KIND: Record<string, string> = {
  [GOOGLE.doc]: 'Google Doc',
  [GOOGLE.sheet]: 'Google Sheet',
  [GOOGLE.slides]: 'Google Slides',
  [GOOGLE.drawing]: 'Google Drawing',
  [GOOGLE.folder]: 'folder',
  [GOOGLE.shortcut]: 'shortcut',
};

/** The `fields` of a file in lists and metadata (Google's partial response). */
/** The scheme and authority of the Drive file resources (`gdrive:///<fileId>`, the reference's URIs). */
export const RESOURCE_PREFIX = 'gdrive:///';

/**
 * `resource_link`s to the gdrive:/// resources of `entries` that resources/read serves (not
 * folders, not shortcuts: those it refuses), named as the result shows them, with the Drive MIME type.
 */
export function fileLinks(entries: readonly FileEntry[]): ResourceLink[] {
  return entries
    .filter((e) => e.id && e.mimeType !== GOOGLE.folder && e.mimeType !== GOOGLE.shortcut)
    .map((e) => ({ uri: `${RESOURCE_PREFIX}${e.id}`, name: e.name, mimeType: e.mimeType }));
}

export const FILE_FIELDS =
  'id,name,mimeType,modifiedTime,size,driveId,parents,owners(displayName,emailAddress),trashed';
/** Metadata adds the description, links and sharing facts. */
export const METADATA_FIELDS = `${FILE_FIELDS},description,createdTime,webViewLink,shared,starred,lastModifyingUser(displayName,emailAddress),shortcutDetails(targetId,targetMimeType)`;

/** "Google Doc", or the MIME type itself. */
export function kindOf(mimeType: string | null | undefined): string {
  return (mimeType && KIND[mimeType]) || mimeType || 'unknown type';
}

/** A file in results. */
export const fileShape = z.object({
  id: z.string(),
  name: z.string(),
  mimeType: z.string(),
  modifiedTime: z.string().optional(),
  size: z.number().optional().describe('Bytes (Google Docs, Sheets and Slides have none)'),
  owners: z.array(z.string()).optional(),
  driveId: z.string().optional().describe('The Shared Drive the file is in (absent: My Drive)'),
  parentId: z.string().optional(),
});

export type FileEntry = z.infer<typeof fileShape>;

/** `file` as a {@link FileEntry}, its name neutralised by `text`. */
export function toEntry(file: drive_v3.Schema$File, text: UntrustedText): FileEntry {
  const owners = (file.owners ?? [])
    .map((o) =>
      text.line([o.displayName, o.emailAddress ? `<${o.emailAddress}>` : ''].filter(Boolean).join(' ')),
    )
    .filter(Boolean);
  const size = Number(file.size);
  return {
    id: file.id ?? '',
    name: text.line(file.name ?? ''),
    mimeType: file.mimeType ?? 'application/octet-stream',
    ...(file.modifiedTime ? { modifiedTime: file.modifiedTime } : {}),
    ...(file.size != null && Number.isFinite(size) ? { size } : {}),
    ...(owners.length ? { owners } : {}),
    ...(file.driveId ? { driveId: file.driveId } : {}),
    ...(file.parents?.[0] ? { parentId: file.parents[0] } : {}),
  };
}

/** One line: `- name — Google Doc, id X, modified T, 12 bytes, owner O, Shared Drive D`. */
export function entryLine(entry: FileEntry, driveNames: ReadonlyMap<string, string> = new Map()): string {
  const facts = [
    kindOf(entry.mimeType),
    `id ${entry.id}`,
    entry.modifiedTime ? `modified ${entry.modifiedTime}` : '',
    entry.size !== undefined ? `${entry.size} bytes` : '',
    entry.owners?.length ? `owner ${entry.owners.join(', ')}` : '',
    entry.driveId ? `Shared Drive ${driveNames.get(entry.driveId) ?? entry.driveId} (${entry.driveId})` : '',
  ].filter(Boolean);
  return `- ${entry.name} — ${facts.join(', ')}`;
}
