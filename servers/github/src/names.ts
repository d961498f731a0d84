/**
 * Argument schemas for GitHub names, validated before any URL is built (cases GH-01, GH-02):
 * owners and repository names by GitHub's rules, branches by `git check-ref-format`, paths by
 * segment (no "." / ".."), plus the numbers and page arguments every tool shares. Messages name
 * what is allowed, and zod puts the argument's name in front.
 */
import { advertisedAs, safeString, z } from '@refmcp/shared/schema';

/** GitHub logins: letters, digits, "-" (and "_" on Enterprise Managed Users), ≤ 100 here. */
export const OWNER_PATTERN = /^[A-Za-z0-9](?:[A-Za-z0-9_-]{0,98}[A-Za-z0-9_])?$/;
/** Repository names: letters, digits, ".", "-", "_"; not "." or "..". */
export const REPO_PATTERN = /^(?!\.\.?$)[A-Za-z0-9._-]{1,100}$/;
/**
 * REPO_PATTERN without its lookahead, for the advertised schema: RE2-style engines (Go, Rust,
 * Gemini) have no lookaround. "." and ".." are refused by the server (repoSchema's refine).
 */
export const REPO_CHARS = /^[A-Za-z0-9._-]{1,100}$/;

/**
 * `git check-ref-format` rules for one branch name (git-check-ref-format(1)): no control
 * characters, space, ~ ^ : ? * [ \ ; no "..", "@{", "//"; not starting or ending with "/", not
 * ending with "." or ".lock", no component starting with "."; not "@". "&" and "=" are allowed
 * (and are sent encoded: GH-02).
 */
export function isValidBranchName(name: string): boolean {
  if (!name || name === '@' || name.length > 255) return false;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: git forbids control characters in refs
  if (/[\u0000-\u0020\u007f~^:?*[\\]/.test(name)) return false;
  if (name.includes('..') || name.includes('@{') || name.includes('//')) return false;
  if (name.startsWith('/') || name.endsWith('/') || name.endsWith('.') || name.endsWith('.lock'))
    return false;
  return !name.split('/').some((c) => c.startsWith('.'));
}

/** One instance per key: zod schemas are immutable, and building ~40 tools' worth at startup costs. */
function once<K, V>(make: (key: K) => V): (key: K) => V {
  const made = new Map<K, V>();
  return (key) => {
    let value = made.get(key);
    if (value === undefined) {
      value = make(key);
      made.set(key, value);
    }
    return value;
  };
}

// owner, repo and shas are advertised as plain strings, owner and repo without descriptions (a
// model knows GitHub's names; 37 tools × two patterns and descriptions were a fifth of the
// server's tools/list); the server still checks every pattern.
// REPO_CHARS keeps the refusal of "." and ".." out of the regex, so no lookaround is needed.
const ownerSchema = once((_: 0) =>
  advertisedAs(
    safeString({ max: 100 }).regex(
      OWNER_PATTERN,
      'must be a GitHub user or organization name (letters, digits, "-", "_")',
    ),
    { type: 'string' },
  ),
);
export const owner = () => ownerSchema(0);

const repoSchema = once((_: 0) =>
  advertisedAs(
    safeString({ max: 100 })
      .regex(REPO_CHARS, 'must be a repository name (letters, digits, ".", "-", "_")')
      .refine((name) => REPO_PATTERN.test(name), { message: 'must be a repository name, not "." or ".."' }),
    { type: 'string' },
  ),
);
export const repo = () => repoSchema(0);

export const branch = once((description: string) =>
  safeString({ max: 255 })
    .refine(isValidBranchName, { message: 'is not a valid git branch name (see git check-ref-format)' })
    .describe(description),
);

/** A commit sha or a ref name (branch/tag). */
export const refName = (description: string) =>
  safeString({ max: 255 })
    .refine((v) => /^[0-9a-f]{7,40}$/i.test(v) || isValidBranchName(v), {
      message: 'is not a commit sha or a valid ref name',
    })
    .describe(description);

export const sha = (description: string) =>
  advertisedAs(
    safeString({ max: 64 }).regex(
      /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/i,
      'must be a full 40-character (or 64) hex git object id',
    ),
    { type: 'string' },
  ).describe(description);

/** A path inside a repository ("." and ".." segments are refused when the URL is built). */
export const repoPath = (description: string) => safeString({ max: 4096 }).describe(description);

/**
 * True when a repository path has a `.git` segment, also in the spellings Windows and macOS
 * checkouts read as `.git` (`.GIT`, `.git.`, `.git ` and `git~1` on NTFS, ignorable characters
 * such as U+200C inside it on HFS+). Git's verify_path and GitHub refuse to commit such paths: a
 * checkout would write into the repository's own git directory (config, hooks).
 */
export function hasGitSegment(path: string): boolean {
  return path.split(/[/\\]/).some((segment) => {
    const name = segment
      .replace(/\p{Default_Ignorable_Code_Point}/gu, '')
      .replace(/:.*$/, '') // NTFS streams: .git::$INDEX_ALLOCATION
      .toLowerCase()
      .replace(/[. ]+$/, '');
    return name === '.git' || name === 'git~1';
  });
}

/** A path to write (create_or_update_file, delete_file, push_files): as repoPath, no `.git` segment. */
export const writePath = (description: string) =>
  repoPath(description).refine((path) => !hasGitSegment(path), {
    message:
      'has a ".git" segment: GitHub refuses to write paths inside .git (the repository\'s own git directory is not part of its contents); choose another path',
  });

export const number = (description: string) => {
  const n = z.number().int().min(1).max(2_147_483_647);
  return description ? n.describe(description) : n;
};

export const page = () =>
  advertisedAs(z.number().int().min(1).max(10_000), { type: 'integer', minimum: 1 }).optional();

export const perPage = (max = 100) =>
  advertisedAs(z.number().int().min(1).max(max), { type: 'integer', maximum: max })
    .optional()
    .describe('default 30');

/** Free text written by the model (bodies, messages): bounded, no NUL/lone surrogates. */
export const text = (description: string, max = 65_536) =>
  description ? safeString({ max }).describe(description) : safeString({ max });
