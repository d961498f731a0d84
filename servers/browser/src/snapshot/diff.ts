/**
 * What changed between two snapshots of the same page, as the lines that appeared and the lines
 * that went away (multiset difference of lines, order of the new snapshot kept). Cheaper for a
 * model to read than a whole snapshot after every click; refs in the added lines are current.
 */

export interface SnapshotDiff {
  added: string[];
  removed: string[];
}

function counts(lines: string[]): Map<string, number> {
  const map = new Map<string, number>();
  for (const line of lines) map.set(line, (map.get(line) ?? 0) + 1);
  return map;
}

/** Lines of `after` not in `before` and lines of `before` not in `after`, each with multiplicity. */
export function diffSnapshots(before: string, after: string): SnapshotDiff {
  const a = before.split('\n').filter(Boolean);
  const b = after.split('\n').filter(Boolean);
  const remaining = counts(a);
  const added: string[] = [];
  for (const line of b) {
    const n = remaining.get(line) ?? 0;
    if (n > 0) remaining.set(line, n - 1);
    else added.push(line);
  }
  const unmatched = counts(b);
  const removed: string[] = [];
  for (const line of a) {
    const n = unmatched.get(line) ?? 0;
    if (n > 0) unmatched.set(line, n - 1);
    else removed.push(line);
  }
  return { added, removed };
}

/** A diff as text: "Removed:" and "Added:" sections of snapshot lines, or a note that nothing changed. */
export function renderDiff(diff: SnapshotDiff): string {
  if (!diff.added.length && !diff.removed.length) return 'No change in the accessibility snapshot.';
  const section = (title: string, lines: string[]) =>
    lines.length ? [`${title} (${lines.length} line(s)):`, ...lines.map((l) => `  ${l.trim()}`)] : [];
  return [...section('Removed', diff.removed), ...section('Added', diff.added)].join('\n');
}
