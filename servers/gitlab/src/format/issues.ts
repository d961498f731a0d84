/**
 * Issues, merge requests and notes as the model sees them (lenient: GitLab sends null and leaves
 * fields out freely, GL-05). Titles, bodies and notes go through the untrusted-text builder;
 * under --lockdown a withheld author's text is replaced by the notice.
 */
import { compact } from '@refmcp/shared';
import { z } from '@refmcp/shared/schema';
import type { UntrustedText } from '@refmcp/shared/untrusted';
import { arr, bool, num, obj, positionLabel, str, username } from './common.js';

export const issueShape = z.object({
  iid: z.number().optional(),
  title: z.string(),
  state: z.string().optional(),
  author: z.string().optional(),
  assignees: z.array(z.string()).optional(),
  labels: z.array(z.string()).optional(),
  milestone: z.string().optional(),
  createdAt: z.string().optional(),
  updatedAt: z.string().optional(),
  webUrl: z.string().optional(),
  description: z.string().optional(),
});
export type Issue = z.infer<typeof issueShape>;

export const mergeRequestShape = issueShape.extend({
  sourceBranch: z.string().optional(),
  targetBranch: z.string().optional(),
  draft: z.boolean().optional(),
  mergeStatus: z.string().optional(),
  sha: z.string().optional(),
  mergedAt: z.string().optional(),
});
export type MergeRequest = z.infer<typeof mergeRequestShape>;

/** An issue; `bodyBytes` bounds the description; `withheld` replaces it (and the title) under lockdown. */
export function toIssue(raw: unknown, text: UntrustedText, bodyBytes: number, withheld?: string): Issue {
  const i = obj(raw);
  const names = (v: unknown) =>
    arr(v)
      .map(username)
      .filter((u): u is string => !!u);
  const assignees = names(i.assignees);
  const labels = arr(i.labels)
    .map((l) => (typeof l === 'string' ? l : str(obj(l).name)))
    .filter((l): l is string => !!l);
  const description =
    withheld ?? text.clean(str(i.description), bodyBytes, 'read the item alone with its get tool');
  return compact({
    iid: num(i.iid),
    title: withheld ? '[withheld]' : text.line(str(i.title)),
    state: str(i.state),
    author: username(i.author),
    assignees: assignees.length ? assignees.map((a) => text.line(a)) : undefined,
    labels: labels.length ? labels.map((l) => text.line(l)) : undefined,
    milestone: str(obj(i.milestone).title) ? text.line(str(obj(i.milestone).title)) : undefined,
    createdAt: str(i.created_at),
    updatedAt: str(i.updated_at),
    webUrl: str(i.web_url),
    description: description || undefined,
  });
}

export function toMergeRequest(
  raw: unknown,
  text: UntrustedText,
  bodyBytes: number,
  withheld?: string,
): MergeRequest {
  const m = obj(raw);
  return compact({
    ...toIssue(raw, text, bodyBytes, withheld),
    sourceBranch: str(m.source_branch),
    targetBranch: str(m.target_branch),
    draft: bool(m.draft) ?? bool(m.work_in_progress),
    mergeStatus: str(m.detailed_merge_status) ?? str(m.merge_status),
    sha: str(m.sha),
    mergedAt: str(m.merged_at),
  });
}

/** "#12 [opened] Title (by alice; labels bug)". `sigil` is "#" for issues, "!" for MRs. */
export function renderIssuable(i: Issue & Partial<MergeRequest>, sigil = '#'): string {
  const facts = [
    i.author ? `by ${i.author}` : '',
    i.sourceBranch ? `${i.sourceBranch} → ${i.targetBranch ?? '?'}` : '',
    i.draft ? 'draft' : '',
    i.assignees ? `assignees ${i.assignees.join(', ')}` : '',
    i.labels ? `labels ${i.labels.join(', ')}` : '',
  ].filter(Boolean);
  return `${sigil}${i.iid ?? '?'} [${i.state ?? '?'}] ${i.title}${facts.length ? ` (${facts.join('; ')})` : ''}`;
}

export const noteShape = z.object({
  id: z.number().optional(),
  author: z.string().optional(),
  createdAt: z.string().optional(),
  system: z.boolean().optional(),
  discussion: z.string().optional().describe('Discussion (thread) id'),
  position: z.string().optional().describe('file:line (or first-last) a diff note is on'),
  resolved: z.boolean().optional().describe('On resolvable threads'),
  body: z.string(),
});
export type Note = z.infer<typeof noteShape>;

export function toNote(
  raw: unknown,
  text: UntrustedText,
  bodyBytes: number,
  withheld?: string,
  discussion?: string,
): Note {
  const n = obj(raw);
  return compact({
    id: num(n.id),
    author: username(n.author),
    createdAt: str(n.created_at),
    system: bool(n.system) || undefined,
    discussion,
    position: positionLabel(n.position, (s) => text.line(s)),
    resolved: bool(n.resolvable) ? (bool(n.resolved) ?? false) : undefined,
    body: withheld ?? text.clean(str(n.body), bodyBytes, 'narrow with page/per_page'),
  });
}

export function renderNote(n: Note): string {
  const where = n.position ? ` on ${n.position}` : '';
  const thread = n.discussion ? ` [thread ${n.discussion}]` : '';
  const state = n.resolved === undefined ? '' : n.resolved ? ' (resolved)' : ' (unresolved)';
  return `Note ${n.id ?? '?'} by ${n.author ?? '?'} at ${n.createdAt ?? '?'}${where}${thread}${state}${n.system ? ' (system)' : ''}`;
}
