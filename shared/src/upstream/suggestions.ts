/**
 * Suggested changes in review comments, as GitHub and GitLab take them: a fenced block whose info
 * string starts with `suggestion` (GitHub: docs.github.com, "Incorporating feedback in your pull
 * request"; GitLab: docs.gitlab.com/user/project/merge_requests/reviews/suggestions/, where
 * `suggestion:-N+M` widens the replaced range to N lines above and M below the commented line).
 * Both vendors apply a suggestion to lines of the new file at the head commit; these helpers let a
 * server check that before it posts one.
 */

/**
 * The opening of a suggestion fence, from the start of its line: indentation, then any CommonMark
 * container markers — block quotes (`>`) and list items (`-`, `*`, `+`, `1.`, `1)`), nested in any
 * order — then the fence and `suggestion`. GitLab (GLFM) and GitHub (GFM) are CommonMark: a fenced
 * block inside a block quote or list item is still a fenced block (spec.commonmark.org, "Container
 * blocks"), so a suggestion there must be checked like one at the top level. Deliberately loose
 * (a marker without its space, deep indentation): a false match only means a check too many.
 * Each marker consumes a character the whitespace runs cannot, so matching is linear per line.
 */
export const SUGGESTION_OPENING = /[ \t]*(?:(?:>|[-*+]|\d{1,9}[.)])[ \t]*)*(?:`{3,}|~{3,})suggestion/;

const SUGGESTION = new RegExp(`^${SUGGESTION_OPENING.source}\\b`, 'm');

/** True when `body` holds a suggestion block. */
export const hasSuggestion = (body: string): boolean => SUGGESTION.test(body);

/**
 * For each new-file line a unified-diff patch shows (added and context lines), its old-file line
 * (undefined for an added line). Hunk headers `@@ -a,b +c,d @@` give the starts; GitHub's `patch`
 * and GitLab's `diff` fields both have this shape.
 */
export function newFileLines(patch: string): Map<number, number | undefined> {
  const lines = new Map<number, number | undefined>();
  let next = 0;
  let old = 0;
  for (const l of patch.split('\n')) {
    const hunk = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(l);
    if (hunk) {
      old = Number(hunk[1]);
      next = Number(hunk[2]);
      continue;
    }
    if (next === 0 || l.startsWith('\\')) continue;
    if (l.startsWith('+')) lines.set(next++, undefined);
    else if (l.startsWith(' ')) lines.set(next++, old++);
    else if (l.startsWith('-')) old++;
  }
  return lines;
}

/** New-file line numbers a unified-diff patch shows (added and context lines). */
export function rightLines(patch: string): Set<number> {
  return new Set(newFileLines(patch).keys());
}

/** Old-file line numbers a patch shows as removed (where an old-side diff comment may sit). */
export function removedLines(patch: string): Set<number> {
  const lines = new Set<number>();
  let old = 0;
  let started = false;
  for (const l of patch.split('\n')) {
    const hunk = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(l);
    if (hunk) {
      old = Number(hunk[1]);
      started = true;
      continue;
    }
    if (!started || l.startsWith('\\')) continue;
    if (l.startsWith('-')) lines.add(old++);
    else if (l.startsWith(' ')) old++;
  }
  return lines;
}
