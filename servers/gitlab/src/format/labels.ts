/**
 * Labels as the model sees them (lenient). Names and descriptions are user-authored: untrusted
 * text. GitLab sends the counts only when asked (`with_counts=true`), so they are optional.
 */
import { compact } from '@refmcp/shared';
import { z } from '@refmcp/shared/schema';
import type { UntrustedText } from '@refmcp/shared/untrusted';
import { num, obj, str } from './common.js';

export const labelShape = z.object({
  name: z.string(),
  color: z.string().optional(),
  description: z.string().optional(),
  openIssues: z.number().optional(),
  closedIssues: z.number().optional(),
  openMergeRequests: z.number().optional(),
});
export type Label = z.infer<typeof labelShape>;

/** A label; `descriptionBytes` bounds its description. */
export function toLabel(raw: unknown, text: UntrustedText, descriptionBytes: number): Label {
  const l = obj(raw);
  return compact({
    name: text.line(str(l.name)),
    color: str(l.color),
    description: text.clean(str(l.description), descriptionBytes) || undefined,
    openIssues: num(l.open_issues_count),
    closedIssues: num(l.closed_issues_count),
    openMergeRequests: num(l.open_merge_requests_count),
  });
}
