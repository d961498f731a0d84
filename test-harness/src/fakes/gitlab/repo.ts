// The fake GitLab's repositories: commits holding full file snapshots, branches, protected
// branches, refs resolved as GitLab resolves them (branch, full or short sha), and the diffs
// GitLab's `/diff`, `/diffs` and `/compare` endpoints answer.
import { createHash } from 'node:crypto';

/** A flat snapshot of a commit's files: path → content. */
export type Snapshot = Map<string, Buffer>;

export interface Signature {
  name: string;
  email: string;
}

export interface CommitRecord {
  /** 40 hex digits. */
  id: string;
  parentIds: string[];
  message: string;
  author: Signature;
  /** ISO 8601. */
  date: string;
  files: Snapshot;
}

/** One file's change between two snapshots, in GitLab's diff entity terms. */
export interface FileDiff {
  oldPath: string;
  newPath: string;
  newFile: boolean;
  deletedFile: boolean;
  renamedFile: boolean;
  /** Unified-diff hunks without the `diff --git` header, as GitLab's `diff` field; "" for binary files. */
  diff: string;
  additions: number;
  deletions: number;
}

let clock = Date.parse('2026-01-05T09:00:00Z');

/** A monotonically increasing timestamp (one minute per call), so that orders are deterministic. */
export function tick(): string {
  clock += 60_000;
  return new Date(clock).toISOString();
}

/** Git's blob id of `content` (sha1 of "blob <size>\0<content>"). */
export function blobId(content: Buffer): string {
  return createHash('sha1').update(`blob ${content.length}\0`).update(content).digest('hex');
}

/** True when `content` looks binary (a NUL byte in the first 8000 bytes, as git decides). */
export function isBinary(content: Buffer): boolean {
  return content.subarray(0, 8000).includes(0);
}

export class Repository {
  readonly commits = new Map<string, CommitRecord>();
  readonly branches = new Map<string, string>();
  /** Branches only Maintainers (40) may push to or merge into; the default branch is protected. */
  readonly protectedBranches = new Set<string>();

  constructor(public defaultBranch = 'main') {}

  get empty(): boolean {
    return this.branches.size === 0;
  }

  /** The commit `ref` names: a branch, a full sha or a unique prefix of ≥ 7 hex digits. */
  resolve(ref: string): CommitRecord | undefined {
    const name = ref.replace(/^refs\/heads\//, '');
    const sha = this.branches.get(name);
    if (sha) return this.commits.get(sha);
    if (/^[0-9a-f]{7,40}$/.test(ref)) {
      const hits = [...this.commits.keys()].filter((id) => id.startsWith(ref));
      if (hits.length === 1) return this.commits.get(hits[0] ?? '');
    }
    return undefined;
  }

  /**
   * Commits `changes` (path → new content, or null to delete) on `branch`, starting from
   * `start` (a commit; default the branch head) and moves the branch. Returns the new commit.
   */
  commit(
    branch: string,
    changes: Map<string, Buffer | null>,
    message: string,
    author: Signature,
    start?: CommitRecord,
    extraParents: string[] = [],
  ): CommitRecord {
    const parent = start ?? this.resolve(branch);
    const files: Snapshot = new Map(parent?.files ?? []);
    for (const [path, content] of changes) {
      if (content === null) files.delete(path);
      else files.set(path, content);
    }
    const date = tick();
    const parentIds = [...(parent ? [parent.id] : []), ...extraParents];
    const id = createHash('sha1')
      .update(`${parentIds.join(',')}\n${message}\n${date}\n${this.commits.size}`)
      .update([...files].map(([p, c]) => `${p}:${blobId(c)}`).join('\n'))
      .digest('hex');
    const record: CommitRecord = { id, parentIds, message, author, date, files };
    this.commits.set(id, record);
    this.branches.set(branch, id);
    if (!this.protectedBranches.size) this.protectedBranches.add(this.defaultBranch);
    return record;
  }

  /** Commits reachable from `head`, newest first (every parent, each once). */
  history(head: CommitRecord): CommitRecord[] {
    const out: CommitRecord[] = [];
    const seen = new Set<string>();
    const queue = [head];
    while (queue.length) {
      const c = queue.shift();
      if (!c || seen.has(c.id)) continue;
      seen.add(c.id);
      out.push(c);
      for (const p of c.parentIds) {
        const parent = this.commits.get(p);
        if (parent) queue.push(parent);
      }
    }
    return out.sort((a, b) => b.date.localeCompare(a.date));
  }

  /** The newest common ancestor of `a` and `b` (the merge base), if any. */
  mergeBase(a: CommitRecord, b: CommitRecord): CommitRecord | undefined {
    const ofB = new Set(this.history(b).map((c) => c.id));
    return this.history(a).find((c) => ofB.has(c.id));
  }
}

const lines = (b: Buffer | undefined) => (b?.length ? b.toString('utf8').replace(/\n$/, '').split('\n') : []);

/** One hunk replacing the lines that differ (common head and tail lines trimmed, no context). */
function hunk(before: Buffer | undefined, after: Buffer | undefined) {
  const old = lines(before);
  const now = lines(after);
  let head = 0;
  while (head < old.length && head < now.length && old[head] === now[head]) head++;
  let tail = 0;
  while (
    tail < old.length - head &&
    tail < now.length - head &&
    old[old.length - 1 - tail] === now[now.length - 1 - tail]
  )
    tail++;
  const removed = old.slice(head, old.length - tail);
  const added = now.slice(head, now.length - tail);
  const at = (n: number) => (n ? head + 1 : head);
  const text = [
    `@@ -${at(removed.length)},${removed.length} +${at(added.length)},${added.length} @@`,
    ...removed.map((l) => `-${l}`),
    ...added.map((l) => `+${l}`),
  ].join('\n');
  return { text: `${text}\n`, additions: added.length, deletions: removed.length };
}

/** The files that differ between two snapshots, sorted by path. */
export function diffSnapshots(before: Snapshot, after: Snapshot): FileDiff[] {
  const paths = [...new Set([...before.keys(), ...after.keys()])].sort();
  const out: FileDiff[] = [];
  for (const path of paths) {
    const a = before.get(path);
    const b = after.get(path);
    if (a && b && a.equals(b)) continue;
    const binary = (a && isBinary(a)) || (b && isBinary(b));
    const h = binary ? { text: '', additions: 0, deletions: 0 } : hunk(a, b);
    out.push({
      oldPath: path,
      newPath: path,
      newFile: !a,
      deletedFile: !b,
      renamedFile: false,
      diff: h.text,
      additions: h.additions,
      deletions: h.deletions,
    });
  }
  return out;
}

/** `changes` (from the merge base to the source) applied onto `target`; paths also changed on `target` conflict. */
export function applyChanges(
  base: Snapshot,
  source: Snapshot,
  target: Snapshot,
): { changes: Map<string, Buffer | null>; conflicts: string[] } {
  const changes = new Map<string, Buffer | null>();
  const conflicts: string[] = [];
  for (const d of diffSnapshots(base, source)) {
    const baseContent = base.get(d.oldPath);
    const targetContent = target.get(d.oldPath);
    const targetChanged =
      (baseContent === undefined) !== (targetContent === undefined) ||
      (baseContent && targetContent && !baseContent.equals(targetContent));
    const sourceContent = source.get(d.newPath) ?? null;
    const same = sourceContent && targetContent && sourceContent.equals(targetContent);
    if (targetChanged && !same) conflicts.push(d.newPath);
    changes.set(d.newPath, sourceContent);
  }
  return { changes, conflicts };
}
