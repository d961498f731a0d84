// JSON shapes of the fake GitHub's check runs (the `check-run` schema of GitHub's OpenAPI
// description): every Actions job is a check run of the GitHub Actions app with the job's id (as on
// GitHub, where a job's `check_run_url` names it), and third-party apps add their own.
import { nodeId, simpleUser, type Urls } from './objects.js';
import type { CheckRunRecord, GitHubState, JobRecord, RepoRecord, RunRecord } from './state.js';

const repoApi = (repo: RepoRecord, u: Urls) => `${u.api}/repos/${repo.owner}/${repo.name}`;
const repoWeb = (repo: RepoRecord, u: Urls) => `${u.web}/${repo.owner}/${repo.name}`;

/** A check run as the fake stores it, whichever app made it. */
export interface AnyCheckRun {
  record: CheckRunRecord;
  /** The workflow run and job, for GitHub Actions check runs. */
  job?: { run: RunRecord; job: JobRecord };
}

/** Every check run on `sha`: the Actions jobs of runs on it, then third-party check runs. */
export function checkRunsOn(repo: RepoRecord, sha: string, u: Urls): AnyCheckRun[] {
  const out: AnyCheckRun[] = [];
  for (const run of repo.runs)
    if (run.headSha === sha)
      for (const job of run.jobs)
        out.push({
          job: { run, job },
          record: {
            id: job.id,
            name: job.name,
            headSha: run.headSha,
            status: job.status,
            conclusion: job.conclusion,
            startedAt: job.startedAt,
            completedAt: job.completedAt,
            detailsUrl: `${repoWeb(repo, u)}/actions/runs/${run.id}/job/${job.id}`,
            title: null,
            summary: null,
            text: null,
            app: { slug: 'github-actions', name: 'GitHub Actions' },
          },
        });
  for (const c of repo.checkRuns) if (c.headSha === sha) out.push({ record: c });
  return out;
}

function app(state: GitHubState, a: CheckRunRecord['app'], u: Urls) {
  const owner = state.addUser(a.slug === 'github-actions' ? 'github' : a.slug);
  return {
    id: a.slug === 'github-actions' ? 15368 : 9000,
    slug: a.slug,
    node_id: nodeId('A', a.slug.length),
    owner: simpleUser(owner, u),
    name: a.name,
    description: null,
    external_url: `${u.web}/apps/${a.slug}`,
    html_url: `${u.web}/apps/${a.slug}`,
    created_at: '2024-01-01T00:00:00Z',
    updated_at: '2024-01-01T00:00:00Z',
    permissions: { checks: 'write', metadata: 'read' },
    events: ['check_run'],
  };
}

export function checkRunObject(state: GitHubState, repo: RepoRecord, c: AnyCheckRun, u: Urls) {
  const r = c.record;
  const api = `${repoApi(repo, u)}/check-runs/${r.id}`;
  return {
    id: r.id,
    head_sha: r.headSha,
    node_id: nodeId('CR', r.id),
    external_id: String(r.id),
    url: api,
    html_url: c.job
      ? `${repoWeb(repo, u)}/actions/runs/${c.job.run.id}/job/${r.id}`
      : `${repoWeb(repo, u)}/runs/${r.id}`,
    details_url: r.detailsUrl,
    status: r.status,
    conclusion: r.conclusion,
    started_at: r.startedAt,
    completed_at: r.completedAt,
    output: {
      title: r.title,
      summary: r.summary,
      text: r.text,
      annotations_count: 0,
      annotations_url: `${api}/annotations`,
    },
    name: r.name,
    check_suite: { id: c.job ? c.job.run.id : r.id + 1 },
    app: app(state, r.app, u),
    pull_requests: [],
  };
}
