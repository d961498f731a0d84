// Fake GitLab routes: project search, the `blobs` scope only (GET /projects/:id/search): GitLab's
// basic search (case-insensitive literal text in the files at `ref`, default the default branch),
// one result per matching line with a line of context either side, in path order, offset pages
// (https://docs.gitlab.com/api/search/#scope-blobs-1). Other scopes answer 400.
import type { FakeGitLab } from './fake-gitlab.js';
import { glInvalid, offsetPage, Reply, readableProject, required } from './http.js';
import { isBinary } from './repo.js';
import { commitAt } from './routes-repository.js';

const SCOPES = [
  'issues',
  'work_items',
  'merge_requests',
  'milestones',
  'notes',
  'wiki_blobs',
  'commits',
  'blobs',
  'users',
];

export function registerSearchRoutes(gl: FakeGitLab): void {
  gl.route('GET', '/projects/:id/search', (req, who) => {
    const p = readableProject(gl.state, req, who);
    const search = required(req.query.get('search'), 'search');
    const scope = required(req.query.get('scope'), 'scope');
    if (!SCOPES.includes(scope)) throw new Reply(glInvalid('scope does not have a valid value'));
    if (scope !== 'blobs') throw new Reply(glInvalid(`the fake searches blobs only, not ${scope}`));
    const ref = req.query.get('ref') ?? p.repo.defaultBranch;
    const c = p.repo.empty ? undefined : commitAt(p, ref);
    const needle = search.toLowerCase();
    const hits: object[] = [];
    for (const [path, content] of [...(c?.files ?? [])].sort(([a], [b]) => a.localeCompare(b))) {
      if (isBinary(content)) continue;
      const lines = content.toString('utf8').split('\n');
      lines.forEach((line, i) => {
        if (!line.toLowerCase().includes(needle)) return;
        const from = Math.max(0, i - 1);
        hits.push({
          basename: path.replace(/\.[^./]*$/, ''),
          data: `${lines.slice(from, i + 2).join('\n')}\n`,
          path,
          filename: path,
          id: null,
          ref,
          startline: from + 1,
          project_id: p.id,
        });
      });
    }
    return offsetPage(req, hits, gl.paging);
  });
}
