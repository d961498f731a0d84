/**
 * @refmcp/shared/paths — canonicalise and contain: every path from the model is resolved against the operator's
 * allowed directories (never the cwd), symlinks and Unicode spellings included, and opened/written/moved so that a
 * symlink swapped in between check and use cannot escape.
 */
export { isWithin } from './canonical.js';
export { type Copied, type CopyOptions, copyInside } from './copy.js';
export { PathError, type PathErrorCode } from './errors.js';
export { decodeEscapes, displayPath, fromFsName, fs as pathFs, hasRawBytes, toFsPath } from './fs-names.js';
export { expandHome } from './home.js';
export { MAX_NAME_BYTES, MAX_PATH_BYTES } from './input.js';
export { mkdirInside, mkdirResolved } from './mkdir.js';
export { moveInside } from './move.js';
export {
  type OpenedFile,
  type OpenOptions,
  type OpenSeams,
  openInside,
  openResolved,
  type ReadOpened,
  readInside,
} from './open.js';
export {
  type DirPin,
  pinChild,
  pinDirectory,
  pinningAvailable,
  pinTarget,
  procPath,
  targetKind,
  unpin,
} from './pin.js';
export type { ResolvedPath } from './resolve.js';
export type { AllowedRoot } from './root-set.js';
export { AllowedRoots } from './roots.js';
export { homeTrashDir, type Trashed, type TrashOptions, trashInfo, trashInside } from './trash.js';
export { verifyOpened } from './verify.js';
export { type WriteData, type WriteOptions, writeFileAtomic, writeResolved } from './write.js';
