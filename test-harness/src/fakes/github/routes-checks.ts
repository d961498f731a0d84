// Fake GitHub routes: the check runs of a commit and one check run (docs.github.com/rest/checks/runs).
import type { FakeGitHub } from './fake-github.js';
import { ghError, paged, Reply, repoFor } from './http.js';
import { checkRunObject, checkRunsOn } from './objects-checks.js';
import { resolveRef } from './routes-repos.js';

export function registerCheckRoutes(gh: FakeGitHub): void {
  const { state, urls } = gh;
  const origin = new URL(gh.url).origin;

  gh.route('GET', '/repos/:owner/:repo/commits/:ref/check-runs', (req, who) => {
    const repo = repoFor(state, req, who);
    const sha = resolveRef(state, repo, req.params.ref ?? '');
    const q = req.query;
    const runs = checkRunsOn(repo, sha, urls).filter(
      (c) =>
        (!q.get('check_name') || c.record.name === q.get('check_name')) &&
        (!q.get('status') || c.record.status === q.get('status')),
    );
    const page = paged(
      req,
      origin,
      runs.map((c) => checkRunObject(state, repo, c, urls)),
    );
    return { body: { total_count: runs.length, check_runs: page.items }, headers: page.headers };
  });

  gh.route('GET', '/repos/:owner/:repo/check-runs/:check_run_id', (req, who) => {
    const repo = repoFor(state, req, who);
    const id = Number(req.params.check_run_id);
    const shas = new Set([...repo.runs.map((r) => r.headSha), ...repo.checkRuns.map((c) => c.headSha)]);
    for (const sha of shas) {
      const found = checkRunsOn(repo, sha, urls).find((c) => c.record.id === id);
      if (found) return { body: checkRunObject(state, repo, found, urls) };
    }
    throw new Reply(ghError(404, 'Not Found'));
  });
}
