/**
 * Check runs (GitHub Actions jobs and third-party apps' checks) and one verdict over them and the
 * combined commit status. Which conclusions pass follows GitHub's required status checks: a check
 * passes when it is `success`, `neutral` or `skipped` (docs.github.com, "About protected branches",
 * "Require status checks before merging"); any other completed conclusion fails; a check that has
 * not completed is pending. Statuses: `error` and `failure` fail, `pending` is pending.
 */
import { count } from '@refmcp/shared';
import { z } from '@refmcp/shared/schema';
import type { UntrustedText } from '@refmcp/shared/untrusted';

export const checkRunShape = z.object({
  id: count(),
  name: z.string(),
  status: z.string().describe('queued, in_progress or completed'),
  conclusion: z.string().nullable(),
  app: z.string().nullable().describe('The app that made it (github-actions for Actions jobs)'),
  url: z.string().nullable(),
  title: z.string().nullable().optional(),
  summary: z.string().nullable().optional(),
});
export type CheckRun = z.infer<typeof checkRunShape>;

/** The verdict over statuses and check runs: `none` when the commit has neither. */
export const verdictShape = z.enum(['success', 'failure', 'pending', 'none']);
export type Verdict = z.infer<typeof verdictShape>;

const PASSING = new Set(['success', 'neutral', 'skipped']);

/** True for a completed check run whose conclusion fails. */
export function checkFailed(c: { status: string; conclusion: string | null }): boolean {
  return c.status === 'completed' && !PASSING.has(c.conclusion ?? '');
}

/**
 * A check run as the model sees it; with `summaryBytes`, third-party output title and summary
 * (untrusted, bounded).
 */
export function toCheckRun(raw: unknown, text: UntrustedText, summaryBytes = 0): CheckRun {
  const r = raw as {
    id: number;
    name: string;
    status: string;
    conclusion: string | null;
    html_url: string | null;
    details_url: string | null;
    app?: { slug?: string } | null;
    output?: { title?: string | null; summary?: string | null };
  };
  const run: CheckRun = {
    id: r.id,
    name: text.line(r.name),
    status: r.status,
    conclusion: r.conclusion,
    app: r.app?.slug ?? null,
    url: r.html_url ?? r.details_url,
  };
  if (summaryBytes > 0) {
    run.title = r.output?.title ? text.line(r.output.title) : null;
    run.summary = r.output?.summary
      ? text.clean(r.output.summary, summaryBytes, 'open the check run url')
      : null;
  }
  return run;
}

/** One verdict over the statuses' states and the check runs. */
export function verdictOf(
  statusStates: string[],
  checks: { status: string; conclusion: string | null }[],
): Verdict {
  if (statusStates.length === 0 && checks.length === 0) return 'none';
  if (statusStates.some((s) => s === 'error' || s === 'failure') || checks.some(checkFailed))
    return 'failure';
  if (statusStates.includes('pending') || checks.some((c) => c.status !== 'completed')) return 'pending';
  return 'success';
}

export function renderCheckRun(c: CheckRun): string {
  return `- ${c.name}: ${c.status === 'completed' ? (c.conclusion ?? 'completed') : c.status}${c.app ? ` (${c.app})` : ''}${c.url ? ` ${c.url}` : ''}`;
}
