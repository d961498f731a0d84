// A fake Google Drive API v3 for the Drive server's tests, demo and bench: an in-memory Drive (My
// Drive and Shared Drives, Google Docs/Sheets/Slides/Drawings with their exports, plain files,
// permissions) and Google's OAuth token endpoint, served on 127.0.0.1 by the harness's fake-API
// toolkit at `/drive/v3`, `/upload/drive/v3` and `/token`. Every route is a method of
// `@googleapis/drive` and every reply body validates against its generated types (./spec.ts).
// This file only re-exports.
export { fail, fileNotFound, googleError, invalidQuery } from './errors.js';
export { bearerOf, type DriveCaller, FakeDrive, type RateLimitOptions } from './fake-drive.js';
export { ROOT_ID } from './objects.js';
export { InvalidQuery, parseQuery } from './query.js';
export { docExports } from './routes-upload.js';
export * from './seed.js';
export { startFakeDrive } from './start.js';
export {
  type AccessToken,
  type CommentRecord,
  type DocParagraphRecord,
  type DocTabRecord,
  type DriveRecord,
  DriveState,
  EXPORT_FORMATS,
  EXPORT_SIZE_LIMIT,
  type FileRecord,
  GOOGLE_TYPES,
  ME,
  type PermissionRecord,
  type RefreshToken,
  type ReplyRecord,
  SCOPES,
  type ServiceAccount,
} from './state.js';
