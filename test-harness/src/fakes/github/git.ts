// The fake GitHub's git object store: blobs, trees and commits addressed by git's own SHA-1
// ("<type> <size>\0<body>"), so shas behave as on GitHub (same content, same sha).
import { createHash } from 'node:crypto';

export interface TreeEntry {
  name: string;
  mode: '100644' | '100755' | '040000';
  type: 'blob' | 'tree';
  sha: string;
}

export interface GitSignature {
  name: string;
  email: string;
  date: string;
}

export interface GitCommit {
  sha: string;
  tree: string;
  parents: string[];
  message: string;
  author: GitSignature;
  committer: GitSignature;
  /** GitHub login of the author, when one is known. */
  login?: string;
}

/** A flat snapshot: path → blob sha. */
export type FileMap = Map<string, string>;

function gitSha(type: string, body: Buffer): string {
  return createHash('sha1').update(`${type} ${body.length}\0`).update(body).digest('hex');
}

export class GitStore {
  readonly blobs = new Map<string, Buffer>();
  readonly trees = new Map<string, TreeEntry[]>();
  readonly commits = new Map<string, GitCommit>();

  writeBlob(content: Buffer | string): string {
    const body = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
    const sha = gitSha('blob', body);
    this.blobs.set(sha, body);
    return sha;
  }

  /** Writes the trees of a flat snapshot; returns the root tree sha. */
  writeTree(files: FileMap): string {
    const root = new Map<string, FileMap | string>();
    for (const [path, sha] of files) {
      const [head, ...rest] = path.split('/');
      if (!head) continue;
      if (rest.length === 0) root.set(head, sha);
      else {
        let sub = root.get(head);
        if (typeof sub !== 'object') {
          sub = new Map();
          root.set(head, sub);
        }
        sub.set(rest.join('/'), sha);
      }
    }
    const entries: TreeEntry[] = [...root.entries()]
      .map(
        ([name, value]): TreeEntry =>
          typeof value === 'string'
            ? { name, mode: '100644', type: 'blob', sha: value }
            : { name, mode: '040000', type: 'tree', sha: this.writeTree(value) },
      )
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const body = Buffer.concat(
      entries.map((e) =>
        Buffer.concat([
          Buffer.from(`${e.mode === '040000' ? '40000' : e.mode} ${e.name}\0`),
          Buffer.from(e.sha, 'hex'),
        ]),
      ),
    );
    const sha = gitSha('tree', body);
    this.trees.set(sha, entries);
    return sha;
  }

  /** The flat snapshot of a tree (paths of blobs only). */
  readTree(treeSha: string, prefix = ''): FileMap {
    const out: FileMap = new Map();
    for (const entry of this.trees.get(treeSha) ?? []) {
      const path = `${prefix}${entry.name}`;
      if (entry.type === 'blob') out.set(path, entry.sha);
      else for (const [p, s] of this.readTree(entry.sha, `${path}/`)) out.set(p, s);
    }
    return out;
  }

  writeCommit(commit: Omit<GitCommit, 'sha'>): GitCommit {
    const body = Buffer.from(
      [
        `tree ${commit.tree}`,
        ...commit.parents.map((p) => `parent ${p}`),
        `author ${commit.author.name} <${commit.author.email}> ${Date.parse(commit.author.date) / 1000} +0000`,
        `committer ${commit.committer.name} <${commit.committer.email}> ${Date.parse(commit.committer.date) / 1000} +0000`,
        '',
        commit.message,
      ].join('\n'),
    );
    const full = { ...commit, sha: gitSha('commit', body) };
    this.commits.set(full.sha, full);
    return full;
  }

  /** Files of a commit. */
  filesOf(commitSha: string): FileMap {
    const commit = this.commits.get(commitSha);
    return commit ? this.readTree(commit.tree) : new Map();
  }

  /** Commits reachable from `sha` by first parents, newest first. */
  history(sha: string): GitCommit[] {
    const out: GitCommit[] = [];
    let at: string | undefined = sha;
    while (at) {
      const commit = this.commits.get(at);
      if (!commit) break;
      out.push(commit);
      at = commit.parents[0];
    }
    return out;
  }
}

/** One file's change between two snapshots, with a simple unified-diff patch. */
export interface FileChange {
  filename: string;
  status: 'added' | 'removed' | 'modified';
  additions: number;
  deletions: number;
  sha: string;
  patch: string;
}

const lines = (b: Buffer | undefined) => (b?.length ? b.toString('utf8').replace(/\n$/, '').split('\n') : []);

/** The files that differ between `before` and `after`, sorted by name. */
export function diffSnapshots(store: GitStore, before: FileMap, after: FileMap): FileChange[] {
  const names = [...new Set([...before.keys(), ...after.keys()])].sort();
  const out: FileChange[] = [];
  for (const filename of names) {
    const a = before.get(filename);
    const b = after.get(filename);
    if (a === b) continue;
    const old = lines(a ? store.blobs.get(a) : undefined);
    const now = lines(b ? store.blobs.get(b) : undefined);
    const patch = [
      `@@ -${old.length ? 1 : 0},${old.length} +${now.length ? 1 : 0},${now.length} @@`,
      ...old.map((l) => `-${l}`),
      ...now.map((l) => `+${l}`),
    ].join('\n');
    out.push({
      filename,
      status: !a ? 'added' : !b ? 'removed' : 'modified',
      additions: now.length,
      deletions: old.length,
      sha: b ?? a ?? '',
      patch,
    });
  }
  return out;
}

/** A git-style unified diff of several changes (what the `.diff` media type returns). */
export function unifiedDiff(changes: FileChange[]): string {
  return changes
    .map((c) => {
      const from = c.status === 'added' ? '/dev/null' : `a/${c.filename}`;
      const to = c.status === 'removed' ? '/dev/null' : `b/${c.filename}`;
      return `diff --git a/${c.filename} b/${c.filename}\n--- ${from}\n+++ ${to}\n${c.patch}\n`;
    })
    .join('');
}
