// Starting the fake Drive: the API (Drive v3, its upload path, Docs v1 and the OAuth token endpoint) on one
// free port, the docs.google.com stand-in for export links on another, Google's consent page on a third.
import { startFakeApi } from '../../fake-api/index.js';
import { googleError } from './errors.js';
import { FakeDrive } from './fake-drive.js';
import { registerCommentRoutes } from './routes-comments.js';
import { registerConsentRoutes } from './routes-consent.js';
import { registerDocsRoutes } from './routes-docs.js';
import { registerDocumentRoutes } from './routes-documents.js';
import { registerDriveRoutes } from './routes-drives.js';
import { registerFileRoutes } from './routes-files.js';
import { registerRevisionRoutes } from './routes-revisions.js';
import { registerTokenRoutes } from './routes-token.js';
import { registerUploadRoutes } from './routes-upload.js';
import { DriveState } from './state.js';

/**
 * Starts a fake Drive on 127.0.0.1 (free port) with every route registered and an empty state
 * (seed it with `seedScene` or `drive.state`). Point a client's root URL at `drive.rootUrl` (the
 * Drive API at `/drive/v3`, uploads at `/upload/drive/v3`) and its token URL at `drive.tokenUrl`.
 * Requests no route matches get Google's 404 `notFound`. Its traffic is recorded as vendor
 * "drive" for the spec check (`driveSpec` in ./spec.ts).
 */
export async function startFakeDrive(): Promise<FakeDrive> {
  const api = await startFakeApi({
    vendor: 'drive',
    notFound: (req) => googleError(404, 'notFound', `Method not found: ${req.method} ${req.path}`),
  });
  const docs = await startFakeApi({});
  const accounts = await startFakeApi({});
  const state = new DriveState();
  const drive = new FakeDrive(api, state, docs, accounts);
  registerConsentRoutes(accounts, state);
  registerTokenRoutes(drive);
  registerFileRoutes(drive);
  registerCommentRoutes(drive);
  registerRevisionRoutes(drive);
  registerUploadRoutes(drive);
  registerDriveRoutes(drive);
  registerDocumentRoutes(drive);
  registerDocsRoutes(docs, state);
  return drive;
}
