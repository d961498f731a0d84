// GitLab REST entities of the fake: users, namespaces, projects (with the secrets GitLab exposes
// to Maintainers: `runners_token`, a credentialed `import_url`) and members. Shapes follow the
// REST docs (docs.gitlab.com/api/users, /projects, /members); nulls where GitLab sends them.
import type { AccessLevel, GitLabState, NamespaceRecord, ProjectRecord, UserRecord } from './state.js';
import { fullPath, MAINTAINER } from './state.js';

/** Where web URLs point: the instance's web origin (API URL without its prefix). */
export interface Web {
  web: string;
  api: string;
}

/** UserBasic: the user in authors, assignees, members. */
export function userBasic(u: UserRecord, w: Web) {
  return {
    id: u.id,
    username: u.username,
    public_email: '',
    name: u.name,
    state: 'active',
    locked: false,
    avatar_url: null,
    web_url: `${w.web}/${u.username}`,
  };
}

/** The caller's own user (`GET /user`). */
export function currentUser(u: UserRecord, w: Web) {
  return {
    ...userBasic(u, w),
    created_at: u.createdAt,
    bio: '',
    location: '',
    linkedin: '',
    twitter: '',
    discord: '',
    website_url: '',
    github: '',
    job_title: '',
    pronouns: null,
    organization: '',
    bot: u.bot,
    work_information: null,
    local_time: null,
    last_sign_in_at: u.createdAt,
    confirmed_at: u.createdAt,
    last_activity_on: u.createdAt.slice(0, 10),
    email: u.email,
    theme_id: 1,
    color_scheme_id: 1,
    projects_limit: 100000,
    current_sign_in_at: u.createdAt,
    identities: [],
    can_create_group: true,
    can_create_project: true,
    two_factor_enabled: false,
    external: false,
    private_profile: false,
    commit_email: u.email,
  };
}

export function namespaceBasic(ns: NamespaceRecord, w: Web) {
  return {
    id: ns.id,
    name: ns.name,
    path: ns.path,
    kind: ns.kind,
    full_path: ns.fullPath,
    parent_id: ns.parent?.id ?? null,
    avatar_url: null,
    web_url: ns.kind === 'user' ? `${w.web}/${ns.path}` : `${w.web}/groups/${ns.fullPath}`,
  };
}

/** BasicProjectDetails (`simple=true` lists; `forked_from_project`). */
export function basicProject(p: ProjectRecord, w: Web) {
  const path = fullPath(p);
  return {
    id: p.id,
    description: p.description,
    name: p.name,
    name_with_namespace: `${p.namespace.kind === 'user' ? p.namespace.name : p.namespace.fullPath.split('/').join(' / ')} / ${p.name}`,
    path: p.path,
    path_with_namespace: path,
    created_at: p.createdAt,
    default_branch: p.repo.empty ? null : p.repo.defaultBranch,
    tag_list: p.topics,
    topics: p.topics,
    ssh_url_to_repo: `git@${new URL(w.web).host}:${path}.git`,
    http_url_to_repo: `${w.web}/${path}.git`,
    web_url: `${w.web}/${path}`,
    readme_url: p.repo.resolve(p.repo.defaultBranch)?.files.has('README.md')
      ? `${w.web}/${path}/-/blob/${p.repo.defaultBranch}/README.md`
      : null,
    forks_count: p.forksCount,
    avatar_url: null,
    star_count: p.starCount,
    last_activity_at: p.lastActivityAt,
    namespace: namespaceBasic(p.namespace, w),
  };
}

/**
 * The full project entity. GitLab includes `runners_token` (and the import settings) only for
 * callers who may administer the project (Maintainer and up); `forked_from_project` here also
 * carries its parent's secrets, the worst case the GitLab cases stage.
 */
export function project(state: GitLabState, p: ProjectRecord, w: Web, viewerId: number | undefined) {
  const basic = basicProject(p, w);
  const admin = state.accessLevel(p, viewerId) >= MAINTAINER;
  const api = `${w.api}/projects/${p.id}`;
  const owner =
    p.namespace.kind === 'user' ? state.users.get([...p.namespace.members.keys()][0] ?? 0) : undefined;
  const forkedFrom = p.forkedFrom
    ? {
        ...basicProject(p.forkedFrom, w),
        runners_token: p.forkedFrom.runnersToken,
        import_url: p.forkedFrom.importUrl,
      }
    : undefined;
  return {
    ...basic,
    description_html: p.description ? `<p>${p.description}</p>` : '',
    _links: {
      self: api,
      issues: `${api}/issues`,
      merge_requests: `${api}/merge_requests`,
      repo_branches: `${api}/repository/branches`,
      labels: `${api}/labels`,
      events: `${api}/events`,
      members: `${api}/members`,
      cluster_agents: `${api}/cluster_agents`,
    },
    empty_repo: p.repo.empty,
    archived: p.archived,
    visibility: p.visibility,
    ...(owner ? { owner: userBasic(owner, w) } : {}),
    resolve_outdated_diff_discussions: false,
    container_registry_enabled: true,
    issues_enabled: true,
    merge_requests_enabled: true,
    wiki_enabled: true,
    jobs_enabled: true,
    snippets_enabled: true,
    issues_access_level: 'enabled',
    repository_access_level: 'enabled',
    merge_requests_access_level: 'enabled',
    builds_access_level: 'enabled',
    forking_access_level: 'enabled',
    shared_runners_enabled: true,
    lfs_enabled: true,
    creator_id: p.creatorId,
    ...(forkedFrom ? { forked_from_project: forkedFrom } : {}),
    import_url: admin ? p.importUrl : null,
    import_type: p.importUrl ? 'git' : null,
    import_status: p.importUrl ? 'finished' : 'none',
    import_error: null,
    open_issues_count: p.issues.filter((i) => i.state === 'opened').length,
    updated_at: p.lastActivityAt,
    ci_default_git_depth: 20,
    public_jobs: true,
    build_timeout: 3600,
    auto_cancel_pending_pipelines: 'enabled',
    ci_config_path: null,
    shared_with_groups: [],
    only_allow_merge_if_pipeline_succeeds: false,
    allow_merge_on_skipped_pipeline: null,
    request_access_enabled: true,
    only_allow_merge_if_all_discussions_are_resolved: false,
    remove_source_branch_after_merge: true,
    merge_method: 'merge',
    squash_option: 'default_off',
    autoclose_referenced_issues: true,
    approvals_before_merge: 0,
    mirror: false,
    marked_for_deletion_at: null,
    marked_for_deletion_on: null,
    ...(admin ? { runners_token: p.runnersToken, runner_token_expiration_interval: null } : {}),
  };
}

/** The project entity with the caller's `permissions` (`GET /projects/:id`). */
export function projectWithAccess(
  state: GitLabState,
  p: ProjectRecord,
  w: Web,
  viewerId: number | undefined,
) {
  const own = viewerId === undefined ? 0 : (p.members.get(viewerId) ?? 0);
  let inherited = 0;
  for (let ns: NamespaceRecord | null = p.namespace; ns; ns = ns.parent)
    inherited = Math.max(inherited, viewerId === undefined ? 0 : (ns.members.get(viewerId) ?? 0));
  const access = (level: number) => (level ? { access_level: level, notification_level: 3 } : null);
  return {
    ...project(state, p, w, viewerId),
    permissions: { project_access: access(own), group_access: access(inherited) },
  };
}

/** A member with its effective access level (`GET /projects/:id/members/all/:user_id`). */
export function member(u: UserRecord, level: AccessLevel, w: Web) {
  return {
    ...userBasic(u, w),
    access_level: level,
    created_at: u.createdAt,
    expires_at: null,
    membership_state: 'active',
  };
}
