/** Compact GitHub Actions workflow runs and jobs. */
import { count } from '@refmcp/shared';
import { z } from '@refmcp/shared/schema';
import type { UntrustedText } from '@refmcp/shared/untrusted';
import { login } from './common.js';

export const runShape = z.object({
  id: count(),
  name: z.string().nullable(),
  title: z.string(),
  status: z.string().nullable(),
  conclusion: z.string().nullable(),
  event: z.string(),
  branch: z.string().nullable(),
  sha: z.string(),
  runNumber: count(),
  actor: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  url: z.string(),
});

export function toRun(raw: unknown, text: UntrustedText) {
  const r = raw as {
    id: number;
    name?: string | null;
    display_title: string;
    status: string | null;
    conclusion: string | null;
    event: string;
    head_branch: string | null;
    head_sha: string;
    run_number: number;
    actor?: unknown;
    created_at: string;
    updated_at: string;
    html_url: string;
  };
  return {
    id: r.id,
    name: r.name ? text.line(r.name) : null,
    title: text.line(r.display_title),
    status: r.status,
    conclusion: r.conclusion,
    event: r.event,
    branch: r.head_branch === null ? null : text.line(r.head_branch),
    sha: r.head_sha,
    runNumber: r.run_number,
    actor: login(r.actor),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    url: r.html_url,
  };
}

export function renderRun(r: z.infer<typeof runShape>): string {
  return `run ${r.id} #${r.runNumber} ${r.name ?? ''} [${r.status}${r.conclusion ? `/${r.conclusion}` : ''}] ${r.event} on ${r.branch ?? '?'} @${r.sha.slice(0, 12)} — ${r.title}\n  ${r.url}`;
}

export const jobShape = z.object({
  id: count(),
  name: z.string(),
  status: z.string(),
  conclusion: z.string().nullable(),
  startedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  url: z.string().nullable(),
  steps: z.array(
    z.object({
      number: count(),
      name: z.string(),
      status: z.string(),
      conclusion: z.string().nullable(),
    }),
  ),
});

export function toJob(raw: unknown, text: UntrustedText) {
  const r = raw as {
    id: number;
    name: string;
    status: string;
    conclusion: string | null;
    started_at: string | null;
    completed_at: string | null;
    html_url: string | null;
    steps?: { number: number; name: string; status: string; conclusion: string | null }[];
  };
  return {
    id: r.id,
    name: text.line(r.name),
    status: r.status,
    conclusion: r.conclusion,
    startedAt: r.started_at,
    completedAt: r.completed_at,
    url: r.html_url,
    steps: (r.steps ?? []).map((s) => ({
      number: s.number,
      name: text.line(s.name),
      status: s.status,
      conclusion: s.conclusion,
    })),
  };
}

export function renderJob(j: z.infer<typeof jobShape>): string {
  const failed = j.steps.filter((s) => s.conclusion === 'failure').map((s) => `${s.number}. ${s.name}`);
  return `job ${j.id} ${j.name} [${j.status}${j.conclusion ? `/${j.conclusion}` : ''}]${failed.length ? ` failed steps: ${failed.join('; ')}` : ''}\n  ${j.url ?? ''}`;
}
