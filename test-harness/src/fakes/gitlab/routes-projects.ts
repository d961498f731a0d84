// Fake GitLab routes: the caller and the instance (`/user`, `/version`, `/metadata`), projects
// (list with offset or keyset pages and search, get by id or path, create, fork) and effective
// membership (`members/all/:user_id`, what lockdown checks).
import type { FakeGitLab, GitLabHandler } from './fake-gitlab.js';
import {
  body,
  glError,
  intParam,
  keysetPage,
  notFound,
  offsetPage,
  projectFor,
  Reply,
  requireCaller,
} from './http.js';
import { basicProject, currentUser, member, project, projectWithAccess, type Web } from './objects.js';
import { fullPath, type ProjectRecord } from './state.js';

export function registerProjectRoutes(gl: FakeGitLab): void {
  const { state } = gl;
  const w = (): Web => ({ web: gl.web, api: gl.url });

  gl.route('GET', '/user', (_req, who) => ({ body: currentUser(requireCaller(who).user, w()) }));

  const version = () => ({
    version: state.version.version,
    revision: state.version.revision,
    kas: { enabled: false, externalUrl: null, externalK8sProxyUrl: null, version: null },
    enterprise: state.version.enterprise,
  });
  const instance: GitLabHandler = (_req, who) => {
    requireCaller(who);
    return { body: version() };
  };
  gl.route('GET', '/version', instance);
  gl.route('GET', '/metadata', instance);

  gl.route('GET', '/projects', (req, who) => {
    const q = req.query;
    const viewer = who?.user.id;
    let list = [...state.projects.values()].filter((p) => state.canSee(p, viewer));
    const search = q.get('search')?.toLowerCase();
    if (search)
      list = list.filter(
        (p) =>
          p.name.toLowerCase().includes(search) ||
          p.path.toLowerCase().includes(search) ||
          (p.description ?? '').toLowerCase().includes(search) ||
          (q.get('search_namespaces') === 'true' && fullPath(p).toLowerCase().includes(search)),
      );
    if (q.get('visibility')) list = list.filter((p) => p.visibility === q.get('visibility'));
    if (q.get('archived')) list = list.filter((p) => String(p.archived) === q.get('archived'));
    if (q.get('membership') === 'true') list = list.filter((p) => state.accessLevel(p, viewer) > 0);
    if (q.get('owned') === 'true')
      list = list.filter((p) => p.namespace.kind === 'user' && p.namespace.members.has(viewer ?? -1));
    const min = Number(q.get('min_access_level') ?? 0);
    if (min) list = list.filter((p) => state.accessLevel(p, viewer) >= min);
    const render = (p: ProjectRecord) =>
      q.get('simple') === 'true' ? basicProject(p, w()) : project(state, p, w(), viewer);
    if (q.get('pagination') === 'keyset') {
      const page = keysetPage(req, list, gl.paging);
      return { ...page, body: page.body.map(render) };
    }
    const orderBy = q.get('order_by') ?? 'created_at';
    const dir = q.get('sort') === 'asc' ? 1 : -1;
    const key = (p: ProjectRecord): string | number =>
      orderBy === 'id'
        ? p.id
        : orderBy === 'name'
          ? p.name
          : orderBy === 'path'
            ? p.path
            : orderBy === 'last_activity_at' || orderBy === 'updated_at'
              ? p.lastActivityAt
              : p.createdAt;
    list.sort((a, b) => {
      const x = key(a);
      const y = key(b);
      return (x < y ? -1 : x > y ? 1 : a.id - b.id) * dir;
    });
    const page = offsetPage(req, list, gl.paging);
    return { ...page, body: page.body.map(render) };
  });

  gl.route('GET', '/projects/:id', (req, who) => ({
    body: projectWithAccess(state, projectFor(state, req, who), w(), who?.user.id),
  }));

  gl.route('POST', '/projects', (req, who) => {
    const caller = requireCaller(who, true);
    const b = body<Record<string, unknown>>(req);
    const name = (b.name as string | undefined) ?? (b.path as string | undefined);
    if (!name)
      throw new Reply({
        status: 400,
        body: { error: 'name, path are missing, at least one parameter must be provided' },
      });
    const path = (b.path as string | undefined) ?? name.toLowerCase().replace(/[^a-z0-9_.-]+/g, '-');
    const ns = b.namespace_id
      ? state.namespaces.get(Number(b.namespace_id))
      : b.namespace_path
        ? state.namespaceByPath(String(b.namespace_path))
        : caller.user.namespace;
    if (!ns) throw notFound('Namespace');
    if ((ns.members.get(caller.user.id) ?? 0) < 30) throw new Reply(glError(403, '403 Forbidden'));
    const taken = [...state.projects.values()].some(
      (p) => p.namespace === ns && (p.path === path || p.name === name),
    );
    if (taken)
      throw new Reply(
        glError(400, {
          name: ['has already been taken'],
          path: ['has already been taken'],
          limit_reached: [],
        }),
      );
    const created = state.addProject(ns.fullPath, path, {
      id: state.newProjectId(),
      name,
      description: (b.description as string | undefined) ?? null,
      visibility: (b.visibility as 'public' | 'internal' | 'private' | undefined) ?? 'private',
      creator: caller.user.username,
      defaultBranch: (b.default_branch as string | undefined) ?? 'main',
      importUrl: (b.import_url as string | undefined) ?? null,
      ...(b.initialize_with_readme === true || b.initialize_with_readme === 'true'
        ? { files: { 'README.md': `# ${name}\n` } }
        : {}),
      members: { [caller.user.username]: 50 },
    });
    return { status: 201, body: project(state, created, w(), caller.user.id) };
  });

  gl.route('POST', '/projects/:id/fork', (req, who) => {
    const source = projectFor(state, req, who);
    const caller = requireCaller(who, true);
    const b = body<Record<string, unknown>>(req);
    const ns = b.namespace_id
      ? state.namespaces.get(Number(b.namespace_id))
      : b.namespace_path
        ? state.namespaceByPath(String(b.namespace_path))
        : caller.user.namespace;
    if (!ns) throw notFound('Target Namespace');
    const path = (b.path as string | undefined) ?? source.path;
    if ([...state.projects.values()].some((p) => p.namespace === ns && p.path === path))
      throw new Reply(
        glError(409, {
          name: ['has already been taken'],
          path: ['has already been taken'],
          limit_reached: [],
        }),
      );
    const fork = state.addProject(ns.fullPath, path, {
      id: state.newProjectId(),
      name: (b.name as string | undefined) ?? source.name,
      description: source.description,
      visibility: source.visibility,
      creator: caller.user.username,
      defaultBranch: source.repo.defaultBranch,
      forkedFrom: source,
      members: { [caller.user.username]: 50 },
    });
    for (const [id, c] of source.repo.commits) fork.repo.commits.set(id, c);
    for (const [name, sha] of source.repo.branches) fork.repo.branches.set(name, sha);
    fork.repo.protectedBranches.add(fork.repo.defaultBranch);
    source.forksCount++;
    return { status: 201, body: project(state, fork, w(), caller.user.id) };
  });

  gl.route('GET', '/projects/:id/members/all/:user_id', (req, who) => {
    const p = projectFor(state, req, who);
    const userId = intParam(req.params.user_id, 'user_id');
    const user = state.user(userId);
    const level = state.accessLevel(p, userId);
    if (!user || level === 0) throw new Reply(glError(404, '404 Not found'));
    return { body: member(user, level, w()) };
  });
}
