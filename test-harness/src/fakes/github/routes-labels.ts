// Fake GitHub routes: repository labels (list) and an issue's labels (add, remove one), as
// GitHub's REST "Labels" operations describe them.
import type { FakeGitHub } from './fake-github.js';
import { ghError, invalid, jsonBody, paged, Reply, repoFor } from './http.js';
import { label } from './objects-issues.js';
import { issueFor } from './routes-issues.js';
import type { IssueRecord, RepoRecord } from './state.js';

/** The repository's labels: its definitions, then names used on issues without one, by name. */
function repoLabels(repo: RepoRecord): string[] {
  const names = new Map<string, string>();
  for (const l of repo.labels ?? []) names.set(l.name.toLowerCase(), l.name);
  for (const i of repo.issues)
    for (const n of i.labels) if (!names.has(n.toLowerCase())) names.set(n.toLowerCase(), n);
  return [...names.values()].sort((a, b) => a.localeCompare(b));
}

export function registerLabelRoutes(gh: FakeGitHub): void {
  const { state, urls } = gh;
  const origin = new URL(gh.url).origin;
  const labelsOf = (repo: RepoRecord, issue: IssueRecord) =>
    issue.labels.map((n, i) => label(repo, n, urls, issue.id * 100 + i));

  gh.route('GET', '/repos/:owner/:repo/labels', (req, who) => {
    const repo = repoFor(state, req, who);
    const page = paged(
      req,
      origin,
      repoLabels(repo).map((n, i) => label(repo, n, urls, repo.id * 1000 + i)),
    );
    return { body: page.items, headers: page.headers };
  });

  gh.route('POST', '/repos/:owner/:repo/issues/:issue_number/labels', (req, who) => {
    const repo = repoFor(state, req, who, 'push');
    const issue = issueFor(repo, req);
    const body = jsonBody<{ labels?: unknown }>(req);
    if (
      !Array.isArray(body.labels) ||
      body.labels.length === 0 ||
      !body.labels.every((l) => typeof l === 'string')
    )
      throw invalid('Label', 'labels', 'invalid');
    for (const name of body.labels as string[])
      if (!issue.labels.some((l) => l.toLowerCase() === name.toLowerCase())) issue.labels.push(name);
    issue.updatedAt = state.now();
    return { body: labelsOf(repo, issue) };
  });

  gh.route('DELETE', '/repos/:owner/:repo/issues/:issue_number/labels/:name', (req, who) => {
    const repo = repoFor(state, req, who, 'push');
    const issue = issueFor(repo, req);
    const name = (req.params.name ?? '').toLowerCase();
    const at = issue.labels.findIndex((l) => l.toLowerCase() === name);
    if (at < 0) throw new Reply(ghError(404, 'Label does not exist'));
    issue.labels.splice(at, 1);
    issue.updatedAt = state.now();
    return { body: labelsOf(repo, issue) };
  });
}
