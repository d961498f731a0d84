// The standard scene of the fake Drive, what the cases of shared/cases/drive.md name: an OAuth
// client `cid`/`csecret` with a refresh token, access tokens (full, read-only, expired), My Drive
// files of every kind (Doc, Sheet, Slides, Drawing, text, PNG, binary), a multi-tab Doc (HANDBOOK1:
// two tabs, the first with a child tab; its export has the first tab only), Shared Drive `0ASHARED`
// with `SDFOLDER` and `SDFILE1`, and on request the heavy parts (BIGDOC's 30 MB export, a 50 MB
// text file, thousands of files).
import type { FakeDrive } from './fake-drive.js';
import { ROOT_ID } from './objects.js';
import { docExports } from './routes-upload.js';
import { GOOGLE_TYPES, SCOPES } from './state.js';

/** A 1×1 PNG (what Drawing DRAW1 exports as and logo.png holds). */
export const PNG_BYTES = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** Bytes that are not UTF-8 (blob.bin). */
export const BINARY_BYTES = Buffer.from([
  0xff, 0xfe, 0x00, 0x80, 0xc3, 0x28, 0xa0, 0xa1, 0xf0, 0x28, 0x8c, 0xbc,
]);

/** Credentials of the scene. */
export const SCENE = {
  clientId: 'cid',
  clientSecret: 'csecret',
  refreshToken: '1//TESTREFRESHTOKEN',
  /** Full Drive scope, valid for an hour from seeding. */
  accessToken: 'ya29.TESTTOKEN123',
  /** drive.readonly: writes get 403 insufficientPermissions. */
  readOnlyToken: 'ya29.READONLYTOKEN',
  /** Expired: every call gets 401 authError. */
  expiredToken: 'ya29.EXPIREDTOKEN',
  sharedDriveId: '0ASHARED',
} as const;

/** Options of {@link seedScene}. */
export interface SceneOptions {
  /** Add BIGDOC (a Doc whose 30 MB text is over the export limit) and big.txt (50 MB text/plain). Default false. */
  big?: boolean;
}

/** Sets the standard scene on `drive` (module comment); returns the ids of what it made. */
export function seedScene(drive: FakeDrive, options: SceneOptions = {}) {
  const s = drive.state;
  s.addFile({ id: ROOT_ID, name: 'My Drive', mimeType: GOOGLE_TYPES.folder, parents: [] });
  s.issueRefreshToken(SCENE.clientId, SCENE.clientSecret, [SCOPES.drive], SCENE.refreshToken);
  s.issueAccessToken({ token: SCENE.accessToken });
  s.issueAccessToken({ token: SCENE.readOnlyToken, scopes: [SCOPES.readonly] });
  s.issueAccessToken({ token: SCENE.expiredToken, expiresAt: Date.now() - 1000 });

  const folder = s.addFile({ id: 'FOLDER1', name: 'Reports', mimeType: GOOGLE_TYPES.folder });
  s.addFile({
    id: 'DOC1',
    name: 'Quarterly report',
    mimeType: GOOGLE_TYPES.doc,
    parents: [folder.id],
    description: 'The Q3 report',
    exports: docExports('# Quarterly report\n\nRevenue grew **12%**.\n'),
  });
  // A Doc with tabs (Docs API documents.get): the export gives the first tab only, as reported of
  // Drive; read_file reads every tab through the Docs API.
  s.addFile({
    id: 'HANDBOOK1',
    name: 'Team handbook',
    mimeType: GOOGLE_TYPES.doc,
    parents: [folder.id],
    exports: docExports('# Team handbook\n\nHow we work.\n'),
    tabs: [
      {
        id: 't.overview',
        title: 'Overview',
        paragraphs: [{ text: 'Team handbook', style: 'TITLE' }, { text: 'How we work.' }],
        children: [
          {
            id: 't.onboarding',
            title: 'Onboarding',
            paragraphs: [
              { text: 'First week', style: 'HEADING_2' },
              { text: 'Meet your buddy', bullet: { level: 0 } },
            ],
          },
        ],
      },
      {
        id: 't.oncall',
        title: 'On-call',
        paragraphs: [{ text: 'Rotation', style: 'HEADING_2' }, { text: 'One week each, Monday to Monday.' }],
      },
    ],
  });
  s.addFile({
    id: 'SHEET1',
    name: 'Budget report',
    mimeType: GOOGLE_TYPES.sheet,
    exports: { 'text/csv': Buffer.from('item,amount\nrent,1200\nfood,300\n') },
  });
  s.addFile({
    id: 'SLIDES1',
    name: 'Kickoff deck',
    mimeType: GOOGLE_TYPES.slides,
    exports: { 'text/plain': Buffer.from('Kickoff\n\nGoals for the year\n') },
  });
  s.addFile({
    id: 'DRAW1',
    name: 'Architecture drawing',
    mimeType: GOOGLE_TYPES.drawing,
    exports: { 'image/png': PNG_BYTES },
  });
  s.addFile({
    id: 'TEXT1',
    name: 'notes report.txt',
    mimeType: 'text/plain',
    content: Buffer.from('line 1\nline 2\nline 3\n'),
  });
  s.addFile({
    id: 'OREILLY1',
    name: "O'Reilly report.txt",
    mimeType: 'text/plain',
    content: Buffer.from('animals on covers\n'),
  });
  s.addFile({ id: 'PNG1', name: 'logo.png', mimeType: 'image/png', content: PNG_BYTES });
  s.addFile({ id: 'BIN1', name: 'blob.bin', mimeType: 'application/octet-stream', content: BINARY_BYTES });
  s.addFile({
    id: 'TRASHED1',
    name: 'old report.txt',
    mimeType: 'text/plain',
    trashed: true,
    content: Buffer.from('gone\n'),
  });

  s.addDrive({ id: SCENE.sharedDriveId, name: 'Engineering' });
  s.addFile({
    id: SCENE.sharedDriveId,
    name: 'Engineering',
    mimeType: GOOGLE_TYPES.folder,
    parents: [],
    driveId: SCENE.sharedDriveId,
  });
  s.addFile({
    id: 'SDFOLDER',
    name: 'Plans',
    mimeType: GOOGLE_TYPES.folder,
    parents: [SCENE.sharedDriveId],
    driveId: SCENE.sharedDriveId,
  });
  s.addFile({
    id: 'SDFILE1',
    name: 'Roadmap 2027',
    mimeType: GOOGLE_TYPES.doc,
    parents: ['SDFOLDER'],
    driveId: SCENE.sharedDriveId,
    exports: docExports('# Roadmap 2027\n\nShip the roadmap.\n'),
  });

  if (options.big) {
    const text = Buffer.alloc(30 * 1024 * 1024, 'big doc line\n');
    s.addFile({
      id: 'BIGDOC',
      name: 'Big document',
      mimeType: GOOGLE_TYPES.doc,
      exports: { 'text/plain': text, 'text/markdown': text },
    });
    s.addFile({
      id: 'BIGTEXT',
      name: 'big.txt',
      mimeType: 'text/plain',
      content: Buffer.alloc(50 * 1024 * 1024, 'fifty megabytes\n'),
    });
  }
  return { folder: folder.id, sharedDrive: SCENE.sharedDriveId };
}

/** Adds `count` text files named `${prefix}${i}.txt` in My Drive's root (DR-06: 5,000; DR-07: 300 matching "a"). */
export function addManyFiles(drive: FakeDrive, count: number, prefix = 'file-'): string[] {
  const ids: string[] = [];
  for (let i = 0; i < count; i++)
    ids.push(
      drive.state.addFile({
        name: `${prefix}${i}.txt`,
        mimeType: 'text/plain',
        content: Buffer.from(`file ${i}\n`),
      }).id,
    );
  return ids;
}
