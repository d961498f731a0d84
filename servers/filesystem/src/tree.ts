/**
 * One page of a recursive directory tree in the official server's JSON shape
 * (`[{name, type, children?}]`), bounded by depth, entry count, text bytes and time.
 *
 * Pages continue where the previous one stopped: a page that starts inside a directory already
 * shown repeats that directory's ancestors as nodes marked `continued: true`, so every page is a
 * well-formed tree rooted at the requested directory.
 */
import { type EntryKind, type WalkEntry, Walker, type WalkOptions } from './walk.js';

export interface TreeNode {
  name: string;
  type: EntryKind;
  /** Symlinks: the kind of the target (links are listed, never descended into). */
  target?: 'file' | 'directory' | 'other';
  /** Directories always carry children (possibly empty), as in the official shape. */
  children?: TreeNode[];
  /** The directory was not expanded because it sits at maxDepth. */
  maxDepthReached?: true;
  /** The directory was shown on an earlier page; only its remaining entries follow. */
  continued?: true;
}

export interface TreePageOptions
  extends Pick<WalkOptions, 'contains' | 'deadline' | 'signal' | 'after' | 'onProgress'> {
  maxDepth: number;
  /** True: leave the entry (and what is below it) out. */
  exclude(rel: string): boolean;
  maxEntries: number;
  /** Budget of the page's text (the tree as 2-space-indented JSON), in bytes. */
  maxBytes: number;
}

export interface TreePage {
  tree: TreeNode[];
  /** Entries on this page (not counting `continued` ancestors). */
  entries: number;
  /** Relative path of the last entry on the page: the resume point. */
  last?: string;
  /** Why the page ended early, if it did. */
  stoppedBy?: 'entries' | 'bytes' | 'time' | 'cancelled';
  /** Entries left in directories already read (before exclusions): an estimate of what remains. */
  pending: number;
  depthLimited: number;
  skippedLinks: number;
  unreadable: number;
}

/** Upper bound of the bytes a node adds to JSON.stringify(tree, null, 2) at nesting `level`. */
export function nodeCost(name: string, level: number): number {
  const indent = 4 + 4 * level;
  return 6 * indent + Buffer.byteLength(JSON.stringify(name)) + 80;
}

function toNode(e: WalkEntry): TreeNode {
  if (e.kind === 'directory') {
    return e.depthLimited
      ? { name: e.name, type: 'directory', children: [], maxDepthReached: true }
      : { name: e.name, type: 'directory', children: [] };
  }
  if (e.kind === 'symlink')
    return { name: e.name, type: 'symlink', ...(e.target ? { target: e.target } : {}) };
  return { name: e.name, type: e.kind };
}

/** Builds the next page of the tree of `startReal`. */
export async function buildTreePage(startReal: string, opts: TreePageOptions): Promise<TreePage> {
  const walker = new Walker(startReal, {
    contains: opts.contains,
    maxDepth: opts.maxDepth,
    ...(opts.deadline !== undefined ? { deadline: opts.deadline } : {}),
    ...(opts.signal ? { signal: opts.signal } : {}),
    ...(opts.after ? { after: opts.after } : {}),
    ...(opts.onProgress ? { onProgress: opts.onProgress } : {}),
    prune: (e) => opts.exclude(e.rel),
  });
  const tree: TreeNode[] = [];
  // The open directories along the current path: names and the children arrays entries go into.
  const stack: { name: string; node: TreeNode }[] = [];
  let bytes = 4;
  let entries = 0;
  let depthLimited = 0;
  let last: string | undefined;
  let stoppedBy: TreePage['stoppedBy'];

  const place = (segments: string[]) => {
    // Pop to the deepest open directory that is an ancestor of the entry.
    let keep = 0;
    while (keep < stack.length && keep < segments.length - 1 && stack[keep]?.name === segments[keep]) keep++;
    stack.length = keep;
    // Ancestors not on this page yet (a page starting mid-directory): add them as continued nodes.
    for (let i = stack.length; i < segments.length - 1; i++) {
      const name = segments[i] as string;
      const node: TreeNode = { name, type: 'directory', children: [], continued: true };
      bytes += nodeCost(name, i);
      (stack[i - 1]?.node.children ?? tree).push(node);
      stack.push({ name, node });
    }
    return stack[stack.length - 1]?.node.children ?? tree;
  };

  await walker.each((entry) => {
    const segments = entry.rel.split('/');
    const cost = nodeCost(entry.name, segments.length - 1);
    if (entries >= opts.maxEntries) {
      stoppedBy = 'entries';
      return false;
    }
    if (entries > 0 && bytes + cost > opts.maxBytes) {
      stoppedBy = 'bytes';
      return false;
    }
    const parent = place(segments);
    const node = toNode(entry);
    parent.push(node);
    bytes += cost;
    entries++;
    last = entry.rel;
    if (node.maxDepthReached) depthLimited++;
    else if (node.type === 'directory') stack.push({ name: entry.name, node });
    return true;
  });
  const stats = walker.stats;
  if (!stoppedBy && stats.timedOut) stoppedBy = 'time';
  if (!stoppedBy && stats.aborted) stoppedBy = 'cancelled';
  // An entry pulled but not placed (budget break) is still pending.
  const pending =
    stoppedBy === 'entries' || stoppedBy === 'bytes' ? walker.pendingCount() + 1 : walker.pendingCount();
  return {
    tree,
    entries,
    ...(last !== undefined ? { last } : {}),
    ...(stoppedBy ? { stoppedBy } : {}),
    pending: stoppedBy ? pending : 0,
    depthLimited,
    skippedLinks: stats.skippedLinks,
    unreadable: stats.unreadable,
  };
}
