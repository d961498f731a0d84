/**
 * Repository objects as the model sees them: tree entries, branches, commits and diffs (lenient;
 * commit messages and diffs through the untrusted-text builder, diffs within a byte budget).
 */
import { compact, truncationMarker } from '@refmcp/shared';
import { z } from '@refmcp/shared/schema';
import type { UntrustedText } from '@refmcp/shared/untrusted';
import { bool, obj, str } from './common.js';

export const entryShape = z.object({
  name: z.string(),
  path: z.string(),
  type: z.string().describe('file, directory or submodule'),
});
export type Entry = z.infer<typeof entryShape>;

const ENTRY_TYPES: Record<string, string> = { blob: 'file', tree: 'directory', commit: 'submodule' };

export function toEntry(raw: unknown, text: UntrustedText): Entry {
  const e = obj(raw);
  return {
    name: text.line(str(e.name)),
    path: text.line(str(e.path)),
    type: ENTRY_TYPES[str(e.type) ?? ''] ?? str(e.type) ?? 'unknown',
  };
}

export const branchShape = z.object({
  name: z.string(),
  commit: z.string().optional(),
  default: z.boolean().optional(),
  protected: z.boolean().optional(),
});

export function toBranch(raw: unknown, text: UntrustedText): z.infer<typeof branchShape> {
  const b = obj(raw);
  return compact({
    name: text.line(str(b.name)),
    commit: str(obj(b.commit).id),
    default: bool(b.default) || undefined,
    protected: bool(b.protected) || undefined,
  });
}

export const commitShape = z.object({
  id: z.string(),
  title: z.string(),
  author: z.string().optional(),
  date: z.string().optional(),
  message: z.string().optional(),
  webUrl: z.string().optional(),
});
export type Commit = z.infer<typeof commitShape>;

/** A commit; `messageBytes` 0 leaves the full message out (lists show titles). */
export function toCommit(raw: unknown, text: UntrustedText, messageBytes = 0): Commit {
  const c = obj(raw);
  const message = str(c.message);
  return compact({
    id: str(c.id) ?? '',
    title: text.line(str(c.title) ?? message?.split('\n')[0]),
    author: str(c.author_name) ? text.line(str(c.author_name)) : undefined,
    date: str(c.committed_date) ?? str(c.created_at),
    message: messageBytes && message ? text.clean(message, messageBytes) : undefined,
    webUrl: str(c.web_url),
  });
}

export const diffShape = z.object({
  path: z.string(),
  oldPath: z.string().optional(),
  status: z.string().describe('added, deleted, renamed or modified'),
  diff: z.string().optional(),
  omitted: z
    .enum(['too_large', 'collapsed'])
    .optional()
    .describe('GitLab left this diff out (over its diff limits); diff says how to read the file'),
});
export type Diff = z.infer<typeof diffShape>;

/** The refs a diff is between, to say how to read a file whose diff GitLab left out. */
export interface DiffRefs {
  /** The old side (base, parent or `from`); absent when unknown. */
  from?: string;
  /** The new side (head, the commit or `to`). */
  to: string;
}

/**
 * What stands in for a diff GitLab left out: `too_large` (over the instance's maximum patch size,
 * `diff_max_patch_bytes`) or `collapsed` (over its collapse limits), both answered with an empty
 * `diff` (docs.gitlab.com/administration/diff_limits, api/merge_requests "List merge request
 * diffs"). Says so and how to read the file instead.
 */
function omittedDiff(
  why: 'too_large' | 'collapsed',
  d: { path: string; oldPath?: string; status: string },
  refs: DiffRefs,
): string {
  const reason =
    why === 'too_large'
      ? "GitLab omitted this diff: it is over the instance's maximum diff size."
      : 'GitLab collapsed this diff (over its collapse limits) and sent no lines.';
  const read =
    d.status === 'deleted'
      ? refs.from
        ? `Read the deleted file with get_file_contents (file_path: ${d.oldPath ?? d.path}, ref: ${refs.from}).`
        : ''
      : `Read the file with get_file_contents (file_path: ${d.path}, ref: ${refs.to})${
          refs.from && d.status !== 'added'
            ? ` and the old version with ref: ${refs.from}${d.oldPath ? ` (file_path: ${d.oldPath})` : ''}`
            : ''
        }.`;
  return `⟦${reason} ${read}⟧`.replace(' ⟧', '⟧');
}

/**
 * Diff entries with their unified diffs while `budget.left` bytes last; later ones carry only
 * their paths and status (the marker says how to get the rest). A diff GitLab left out
 * (`too_large`, `collapsed`) is `omitted`, its `diff` saying how to read the file at `refs`.
 */
export function toDiffs(
  raws: unknown[],
  text: UntrustedText,
  budget: { left: number },
  more: string,
  refs?: DiffRefs,
): Diff[] {
  return raws.map((raw) => {
    const d = obj(raw);
    const path = text.line(str(d.new_path) ?? str(d.old_path));
    const oldPath = str(d.old_path);
    const status = bool(d.new_file)
      ? 'added'
      : bool(d.deleted_file)
        ? 'deleted'
        : bool(d.renamed_file)
          ? 'renamed'
          : 'modified';
    const raw_diff = str(d.diff) ?? '';
    const omitted = raw_diff
      ? undefined
      : bool(d.too_large)
        ? 'too_large'
        : bool(d.collapsed)
          ? 'collapsed'
          : undefined;
    if (omitted) {
      const shown = { path, oldPath: oldPath ? text.line(oldPath) : undefined, status };
      const diff = omittedDiff(omitted, shown, refs ?? { to: 'the new ref' });
      return compact({
        path,
        oldPath: status === 'renamed' && oldPath ? shown.oldPath : undefined,
        status,
        diff,
        omitted,
      });
    }
    let diff: string | undefined;
    if (budget.left > 0) {
      diff = text.code(raw_diff, budget.left, more);
      budget.left -= Buffer.byteLength(diff);
    } else if (raw_diff) diff = truncationMarker(`${Buffer.byteLength(raw_diff)} bytes of diff`, more);
    return compact({
      path,
      oldPath: status === 'renamed' && oldPath ? text.line(oldPath) : undefined,
      status,
      diff,
    });
  });
}

export function renderDiff(d: Diff): string {
  const head = `${d.status} ${d.oldPath ? `${d.oldPath} → ` : ''}${d.path}`;
  return d.diff ? `${head}\n${d.diff}` : head;
}
