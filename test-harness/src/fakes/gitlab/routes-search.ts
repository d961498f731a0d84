// Fake GitLab routes: code search, the `blobs` scope only (GET /projects/:id/search and
// GET /groups/:id/search): case-insensitive literal text in the files at `ref` (default the default
// branch; a group searches each readable project's default branch, projects of its subgroups
// too), one result per matching line with a line of context either side, in project and path
// order, offset pages (https://docs.gitlab.com/api/search/#scope-blobs-1). Other scopes answer 400.
// `search_type` (docs.gitlab.com/user/search, "Specify a search type") follows GitLab's checks
// (ee SearchService#search_type_errors): `zoekt` or `advanced` while `FakeGitLab.codeSearch` has it
// off answers 400 "… is not available"; group code search with neither (basic search cannot
// search a group's code) answers 400 "Scope supported only with Elasticsearch".
import type { FakeRequest } from '../../fake-api/index.js';
import type { FakeGitLab } from './fake-gitlab.js';
import {
  type GitLabCaller,
  glError,
  glInvalid,
  notFound,
  offsetPage,
  Reply,
  readableProject,
  required,
} from './http.js';
import { isBinary } from './repo.js';
import { commitAt } from './routes-repository.js';
import { fullPath, GUEST, type NamespaceRecord, type ProjectRecord, REPORTER } from './state.js';

const PROJECT_SCOPES = [
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
const GROUP_SCOPES = [
  'wiki_blobs',
  'blobs',
  'commits',
  'notes',
  'projects',
  'groups',
  'issues',
  'work_items',
  'merge_requests',
  'milestones',
  'users',
];

/** The matching lines of `p`'s files at `ref`, as GitLab's blob results. */
function blobHits(p: ProjectRecord, ref: string, search: string): object[] {
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
  return hits;
}

export function registerSearchRoutes(gl: FakeGitLab): void {
  const { state } = gl;

  /** The search type a request may use (`search_type`, default the best the instance has), or GitLab's 400. */
  const searchType = (req: FakeRequest, group: boolean): string => {
    const asked = req.query.get('search_type');
    if (asked && !['basic', 'advanced', 'zoekt'].includes(asked))
      throw new Reply(glInvalid('search_type does not have a valid value'));
    if (asked === 'zoekt' && !gl.codeSearch.zoekt)
      throw new Reply(glError(400, '400 Bad request - Zoekt is not available'));
    if (asked === 'advanced' && !gl.codeSearch.advanced)
      throw new Reply(glError(400, '400 Bad request - Elasticsearch is not available'));
    const type = asked ?? (gl.codeSearch.zoekt ? 'zoekt' : gl.codeSearch.advanced ? 'advanced' : 'basic');
    if (group && type === 'basic') throw new Reply(glInvalid('Scope supported only with Elasticsearch'));
    return type;
  };

  const scopeOf = (req: FakeRequest, scopes: string[]) => {
    const search = required(req.query.get('search'), 'search');
    const scope = required(req.query.get('scope'), 'scope');
    if (!scopes.includes(scope)) throw new Reply(glInvalid('scope does not have a valid value'));
    if (scope !== 'blobs') throw new Reply(glInvalid(`the fake searches blobs only, not ${scope}`));
    return search;
  };

  gl.route('GET', '/projects/:id/search', (req, who) => {
    const p = readableProject(state, req, who);
    const search = scopeOf(req, PROJECT_SCOPES);
    searchType(req, false);
    return offsetPage(req, blobHits(p, req.query.get('ref') ?? p.repo.defaultBranch, search), gl.paging);
  });

  /** The group `:id` names if `who` may see it (a private group needs membership of it or an ancestor). */
  const groupFor = (req: FakeRequest, who: GitLabCaller | undefined): NamespaceRecord => {
    const id = req.params.id ?? '';
    const g = /^\d+$/.test(id) ? state.namespaces.get(Number(id)) : state.namespaceByPath(id);
    const member = (ns: NamespaceRecord | null): boolean =>
      !!ns && ((who && (ns.members.get(who.user.id) ?? 0) >= GUEST) || member(ns.parent));
    if (g?.kind !== 'group' || (g.visibility === 'private' && !member(g))) throw notFound('Group');
    return g;
  };

  gl.route('GET', '/groups/:id/search', (req, who) => {
    const g = groupFor(req, who);
    const search = scopeOf(req, GROUP_SCOPES);
    searchType(req, true);
    const inside = (p: ProjectRecord) => fullPath(p).toLowerCase().startsWith(`${g.fullPath.toLowerCase()}/`);
    const readable = (p: ProjectRecord) =>
      state.canSee(p, who?.user.id) &&
      (p.visibility !== 'private' || state.accessLevel(p, who?.user.id) >= REPORTER);
    const projects = [...state.projects.values()]
      .filter((p) => inside(p) && readable(p))
      .sort((a, b) => fullPath(a).localeCompare(fullPath(b)));
    return offsetPage(
      req,
      projects.flatMap((p) => blobHits(p, p.repo.defaultBranch, search)),
      gl.paging,
    );
  });
}
