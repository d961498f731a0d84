/**
 * The allowed directories as path resolution sees them: each root in both spellings, and the
 * containment questions resolve.ts asks. roots.ts (`AllowedRoots`) implements it; this module holds
 * the shape so that resolve.ts and roots.ts do not import each other.
 */

/** One allowed directory, in both spellings. */
export interface AllowedRoot {
  /** Absolute, normalised, `~` expanded, no trailing slash: what the operator (or client) named. */
  readonly configured: string;
  /** fs.realpath of `configured`; differs when it is or contains a symlink (macOS /tmp → /private/tmp). */
  readonly real: string;
}

/** What resolvePath (resolve.ts) reads of the allowed directories. */
export interface RootSet {
  readonly roots: readonly AllowedRoot[];
  /** Shown when `roots` is empty, saying why nothing is allowed. */
  readonly emptyReason: string;
  /** True when absolute real path `realPath` is inside (or equal to) a root's real path, by path segments. */
  containsReal(realPath: string): boolean;
  /** The most specific root whose real path contains `realPath`, or undefined. */
  rootOf(realPath: string): AllowedRoot | undefined;
  /** The configured roots as a comma-separated list, for messages. */
  describe(): string;
}
