/**
 * Glob semantics of the listing and search tools, kept compatible with the official
 * server-filesystem (which uses minimatch with `dot: true` on paths relative to the searched
 * directory); matching itself is picomatch's.
 */
import picomatch from 'picomatch';

type Match = (rel: string) => boolean;

const BASE = { dot: true } as const;

/** True when `pattern` contains glob syntax (`*`, `?`, `[…]`, `{…}`, extglobs). */
export function isGlob(pattern: string): boolean {
  return picomatch.scan(pattern).isGlob;
}

/**
 * Exclusion as the official `directory_tree` does it, used by every recursive tool here:
 * a pattern with `*` matches the relative path as a glob; any other pattern also matches the
 * entry anywhere (`**\/p`) and everything below it (`**\/p/**`). So `node_modules` excludes every
 * node_modules directory and its contents, and `dist/*.map` only that glob.
 * A matching directory is pruned: nothing below it is read.
 */
export function excluder(patterns: readonly string[]): Match {
  const matchers: Match[] = [];
  for (const raw of patterns) {
    const pattern = raw.replace(/^\.\/+/, '').replace(/\/+$/, '');
    if (!pattern) continue;
    if (pattern.includes('*')) matchers.push(picomatch(pattern, BASE));
    else matchers.push(picomatch([pattern, `**/${pattern}`, `**/${pattern}/**`], BASE));
  }
  if (matchers.length === 0) return () => false;
  return (rel) => matchers.some((m) => m(rel));
}

/**
 * The `search_files` name pattern. A glob (has `*`, `?`, `[`, `{`…) matches the path relative to
 * the searched directory, exactly like the official server: `*.ts` matches only at the top level,
 * `**\/*.ts` at any depth. A plain string (no glob syntax) matches, case-insensitively, any entry whose
 * name contains it (or whose relative path contains it, when it has a `/`) — the official
 * server's earlier substring behaviour, and a superset of its exact-path match.
 */
export function namePattern(pattern: string): (rel: string, name: string) => boolean {
  if (isGlob(pattern)) {
    // "**/name" with a plain name matches exactly the entries called `name`, at any depth: compare names
    // instead of running picomatch on every relative path of a big walk (same answers, see globs tests).
    const anywhere = /^\*\*\/([\w.-]+)$/.exec(pattern.replace(/^\.\/+/, ''))?.[1];
    if (anywhere !== undefined && anywhere !== '.' && anywhere !== '..')
      return (_rel, name) => name === anywhere;
    const m = picomatch(pattern.replace(/^\.\/+/, ''), BASE);
    return (rel) => m(rel);
  }
  const needle = pattern.replace(/^\.\/+/, '').toLowerCase();
  if (needle.includes('/')) return (rel) => rel.toLowerCase().includes(needle);
  return (_rel, name) => name.toLowerCase().includes(needle);
}

/**
 * `include` globs of search_file_contents: a file is searched when any glob matches. Globs without
 * `/` match the file name at any depth (`*.ts`, `Makefile`), like ripgrep's `-g`; globs with `/`
 * match the relative path (`src/**\/*.ts`). An empty list includes everything.
 */
export function includer(globs: readonly string[]): Match {
  const cleaned = globs.map((g) => g.replace(/^\.\/+/, '')).filter(Boolean);
  if (cleaned.length === 0) return () => true;
  const byName = cleaned.filter((g) => !g.includes('/'));
  const byPath = cleaned.filter((g) => g.includes('/'));
  const name = byName.length > 0 ? picomatch(byName, BASE) : () => false;
  const full = byPath.length > 0 ? picomatch(byPath, BASE) : () => false;
  return (rel) => name(rel.slice(rel.lastIndexOf('/') + 1)) || full(rel);
}
