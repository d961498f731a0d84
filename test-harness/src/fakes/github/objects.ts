// JSON shapes of the fake GitHub's users and repositories, with the fields GitHub's OpenAPI
// description requires (checked by openapi.test.ts).
import type { GitHubState, RepoRecord, UserRecord } from './state.js';

/** Where the fake lives: `api` = origin + API prefix, `web` = origin (GHE layout). */
export interface Urls {
  api: string;
  web: string;
}

export function nodeId(kind: string, id: number): string {
  return Buffer.from(`0:${kind}${id}`).toString('base64').replace(/=+$/, '');
}

/** A path with each segment percent-encoded (for URL fields). */
export function encodedPath(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

export function simpleUser(user: UserRecord, u: Urls) {
  const api = `${u.api}/users/${user.login}`;
  return {
    login: user.login,
    id: user.id,
    node_id: nodeId('U', user.id),
    avatar_url: `${u.web}/avatars/${user.login}`,
    gravatar_id: '',
    url: api,
    html_url: `${u.web}/${user.login}`,
    followers_url: `${api}/followers`,
    following_url: `${api}/following{/other_user}`,
    gists_url: `${api}/gists{/gist_id}`,
    starred_url: `${api}/starred{/owner}{/repo}`,
    subscriptions_url: `${api}/subscriptions`,
    organizations_url: `${api}/orgs`,
    repos_url: `${api}/repos`,
    events_url: `${api}/events{/privacy}`,
    received_events_url: `${api}/received_events`,
    type: user.type,
    site_admin: false,
    user_view_type: 'public',
  };
}

/** simple-user for a login (creating the user record if needed). */
export function userRef(state: GitHubState, login: string, u: Urls) {
  return simpleUser(state.addUser(login), u);
}

export function privateUser(state: GitHubState, user: UserRecord, u: Urls) {
  const owned = state.repos.filter((r) => r.owner === user.login);
  return {
    ...simpleUser(user, u),
    name: user.name,
    company: null,
    blog: '',
    location: null,
    email: user.email,
    hireable: null,
    bio: null,
    twitter_username: null,
    public_repos: owned.filter((r) => !r.private).length,
    public_gists: 0,
    followers: 0,
    following: 0,
    created_at: user.createdAt,
    updated_at: user.createdAt,
    private_gists: 0,
    total_private_repos: owned.filter((r) => r.private).length,
    owned_private_repos: owned.filter((r) => r.private).length,
    disk_usage: 0,
    collaborators: 0,
    two_factor_authentication: true,
  };
}

/** minimal-repository fields (also the base of repository and full-repository). */
export function minimalRepo(state: GitHubState, repo: RepoRecord, u: Urls) {
  const full = `${repo.owner}/${repo.name}`;
  const api = `${u.api}/repos/${full}`;
  return {
    id: repo.id,
    node_id: nodeId('R', repo.id),
    name: repo.name,
    full_name: full,
    owner: userRef(state, repo.owner, u),
    private: repo.private,
    html_url: `${u.web}/${full}`,
    description: repo.description,
    fork: repo.parent !== undefined,
    url: api,
    archive_url: `${api}/{archive_format}{/ref}`,
    assignees_url: `${api}/assignees{/user}`,
    blobs_url: `${api}/git/blobs{/sha}`,
    branches_url: `${api}/branches{/branch}`,
    collaborators_url: `${api}/collaborators{/collaborator}`,
    comments_url: `${api}/comments{/number}`,
    commits_url: `${api}/commits{/sha}`,
    compare_url: `${api}/compare/{base}...{head}`,
    contents_url: `${api}/contents/{+path}`,
    contributors_url: `${api}/contributors`,
    deployments_url: `${api}/deployments`,
    downloads_url: `${api}/downloads`,
    events_url: `${api}/events`,
    forks_url: `${api}/forks`,
    git_commits_url: `${api}/git/commits{/sha}`,
    git_refs_url: `${api}/git/refs{/sha}`,
    git_tags_url: `${api}/git/tags{/sha}`,
    hooks_url: `${api}/hooks`,
    issue_comment_url: `${api}/issues/comments{/number}`,
    issue_events_url: `${api}/issues/events{/number}`,
    issues_url: `${api}/issues{/number}`,
    keys_url: `${api}/keys{/key_id}`,
    labels_url: `${api}/labels{/name}`,
    languages_url: `${api}/languages`,
    merges_url: `${api}/merges`,
    milestones_url: `${api}/milestones{/number}`,
    notifications_url: `${api}/notifications{?since,all,participating}`,
    pulls_url: `${api}/pulls{/number}`,
    releases_url: `${api}/releases{/id}`,
    stargazers_url: `${api}/stargazers`,
    statuses_url: `${api}/statuses/{sha}`,
    subscribers_url: `${api}/subscribers`,
    subscription_url: `${api}/subscription`,
    tags_url: `${api}/tags`,
    teams_url: `${api}/teams`,
    trees_url: `${api}/git/trees{/sha}`,
  };
}

/** repository / full-repository, with `permissions` of `viewer` when given. */
export function fullRepo(
  state: GitHubState,
  repo: RepoRecord,
  u: Urls,
  viewer?: string,
): Record<string, unknown> {
  const full = `${repo.owner}/${repo.name}`;
  const open = repo.issues.filter((i) => i.state === 'open').length;
  const host = new URL(u.web).host;
  const perm = state.permission(repo, viewer);
  const size = [...repo.store.blobs.values()].reduce((n, b) => n + b.length, 0);
  return {
    ...minimalRepo(state, repo, u),
    clone_url: `${u.web}/${full}.git`,
    git_url: `git://${host}/${full}.git`,
    ssh_url: `git@${host}:${full}.git`,
    svn_url: `${u.web}/${full}`,
    mirror_url: null,
    homepage: null,
    language: null,
    forks: 0,
    forks_count: 0,
    stargazers_count: 0,
    watchers_count: 0,
    watchers: 0,
    size: Math.ceil(size / 1024),
    default_branch: repo.defaultBranch,
    open_issues: open,
    open_issues_count: open,
    is_template: false,
    topics: [],
    has_issues: true,
    has_projects: true,
    has_wiki: true,
    has_pages: false,
    has_downloads: true,
    has_discussions: false,
    archived: false,
    disabled: false,
    visibility: repo.private ? 'private' : 'public',
    pushed_at: repo.pushedAt,
    created_at: repo.createdAt,
    updated_at: repo.pushedAt,
    license: null,
    allow_forking: true,
    web_commit_signoff_required: false,
    network_count: 0,
    subscribers_count: 0,
    ...(viewer
      ? {
          permissions: {
            admin: perm === 'admin',
            maintain: perm === 'admin' || perm === 'maintain',
            push: state.canPush(repo, viewer),
            triage: perm !== undefined && perm !== 'read',
            pull: state.canRead(repo, viewer),
          },
        }
      : {}),
    ...(repo.parent
      ? { parent: fullRepoBase(state, repo.parent, u), source: fullRepoBase(state, repo.parent, u) }
      : {}),
  };
}

function fullRepoBase(state: GitHubState, repo: RepoRecord, u: Urls): Record<string, unknown> {
  const { network_count: _n, subscribers_count: _s, ...rest } = fullRepo(state, repo, u);
  return rest;
}

/** `repository` (no network/subscriber counts): what nested repo fields (PR head/base) hold. */
export const repositoryObject = fullRepoBase;
