// Fake GitHub routes: GitHub Actions workflow runs, their jobs, and job logs (a 302 redirect to a
// second origin that serves the log text, as GitHub redirects to its blob storage).

import type { FakeGitHub } from './fake-github.js';
import { ghError, invalid, jsonBody, paged, Reply, repoFor } from './http.js';
import { jobObject, runObject } from './objects-git.js';
import type { RepoRecord, RunRecord } from './state.js';

function runFor(repo: RepoRecord, id: string | undefined) {
  const run = repo.runs.find((r) => r.id === Number(id));
  if (!run) throw new Reply(ghError(404, 'Not Found'));
  return run;
}

export function registerActionsRoutes(gh: FakeGitHub): void {
  const { state, urls } = gh;
  const origin = new URL(gh.url).origin;

  gh.route('GET', '/repos/:owner/:repo/actions/runs', (req, who) => {
    const repo = repoFor(state, req, who);
    const q = req.query;
    const runs = repo.runs.filter(
      (r) =>
        (!q.get('branch') || r.headBranch === q.get('branch')) &&
        (!q.get('event') || r.event === q.get('event')) &&
        (!q.get('status') || r.status === q.get('status') || r.conclusion === q.get('status')) &&
        (!q.get('actor') || r.actor === q.get('actor')),
    );
    const page = paged(
      req,
      origin,
      runs.map((r) => runObject(state, repo, r, urls)),
    );
    return { body: { total_count: runs.length, workflow_runs: page.items }, headers: page.headers };
  });

  gh.route('GET', '/repos/:owner/:repo/actions/runs/:run_id', (req, who) => {
    const repo = repoFor(state, req, who);
    return { body: runObject(state, repo, runFor(repo, req.params.run_id), urls) };
  });

  gh.route('GET', '/repos/:owner/:repo/actions/runs/:run_id/jobs', (req, who) => {
    const repo = repoFor(state, req, who);
    const run = runFor(repo, req.params.run_id);
    const page = paged(
      req,
      origin,
      run.jobs.map((j) => jobObject(repo, run, j, urls)),
    );
    return { body: { total_count: run.jobs.length, jobs: page.items }, headers: page.headers };
  });

  gh.route('GET', '/repos/:owner/:repo/actions/jobs/:job_id', (req, who) => {
    const repo = repoFor(state, req, who);
    for (const run of repo.runs) {
      const job = run.jobs.find((j) => j.id === Number(req.params.job_id));
      if (job) return { body: jobObject(repo, run, job, urls) };
    }
    throw new Reply(ghError(404, 'Not Found'));
  });

  gh.route('GET', '/repos/:owner/:repo/actions/jobs/:job_id/logs', (req, who) => {
    const repo = repoFor(state, req, who);
    for (const run of repo.runs) {
      const job = run.jobs.find((j) => j.id === Number(req.params.job_id));
      if (job) return { status: 302, headers: { location: `${gh.storage.url}/logs/${job.id}?sig=fake` } };
    }
    throw new Reply(ghError(404, 'Not Found'));
  });

  // Writes: a re-run queues the run again (all jobs, or its failed ones); a cancel stops a run that
  // has not completed (409 otherwise, as GitHub answers); a dispatch queues a new run of the workflow.
  const writer = (req: Parameters<typeof repoFor>[1], who: string | undefined) => {
    const repo = repoFor(state, req, who);
    if (!who) throw new Reply(ghError(401, 'Requires authentication'));
    const level = repo.collaborators.get(who);
    if (!level || level === 'read' || level === 'triage')
      throw new Reply(ghError(403, 'Must have admin rights to Repository.'));
    return repo;
  };
  const requeue = (run: RunRecord, failedOnly: boolean) => {
    run.status = 'queued';
    run.conclusion = null;
    for (const j of run.jobs)
      if (!failedOnly || j.conclusion === 'failure') {
        j.status = 'queued';
        j.conclusion = null;
        j.completedAt = null;
      }
  };
  gh.route('POST', '/repos/:owner/:repo/actions/runs/:run_id/rerun', (req, who) => {
    requeue(runFor(writer(req, who), req.params.run_id), false);
    return { status: 201, body: {} };
  });
  gh.route('POST', '/repos/:owner/:repo/actions/runs/:run_id/rerun-failed-jobs', (req, who) => {
    requeue(runFor(writer(req, who), req.params.run_id), true);
    return { status: 201, body: {} };
  });
  gh.route('POST', '/repos/:owner/:repo/actions/runs/:run_id/cancel', (req, who) => {
    const run = runFor(writer(req, who), req.params.run_id);
    if (run.status === 'completed')
      throw new Reply(ghError(409, 'Cannot cancel a workflow run that is completed.'));
    run.status = 'completed';
    run.conclusion = 'cancelled';
    return { status: 202, body: {} };
  });
  gh.route('POST', '/repos/:owner/:repo/actions/workflows/:workflow_id/dispatches', (req, who) => {
    const repo = writer(req, who);
    const id = req.params.workflow_id ?? '';
    const template = repo.runs.find((r) => String(r.workflowId) === id || r.path.endsWith(`/${id}`));
    if (!template) throw new Reply(ghError(404, 'Not Found'));
    const body = jsonBody<{ ref?: string; inputs?: Record<string, unknown> }>(req);
    if (!body.ref) throw invalid('Workflow', 'ref');
    if (!repo.branches.has(body.ref) && !repo.tags.has(body.ref))
      throw new Reply(ghError(422, `No ref found for: ${body.ref}`));
    const run = state.addRun(repo, {
      name: template.name,
      branch: body.ref,
      event: 'workflow_dispatch',
      actor: who,
      jobs: template.jobs.map((j) => ({ name: j.name, log: '' })),
    });
    run.path = template.path;
    run.workflowId = template.workflowId;
    run.inputs = body.inputs ?? {};
    requeue(run, false);
    return { status: 204 };
  });

  gh.storage.route('GET', '/logs/:id', (req) => {
    for (const repo of state.repos)
      for (const run of repo.runs)
        for (const job of run.jobs)
          if (job.id === Number(req.params.id))
            return { raw: job.log, headers: { 'content-type': 'text/plain; charset=utf-8' } };
    return { status: 404, raw: 'not found', headers: { 'content-type': 'text/plain' } };
  });
}
