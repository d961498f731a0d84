// Fake GitHub routes: search for repositories, code, issues/PRs and users, with the qualifiers
// tests need (repo:, user:, org:, is:, state:, author:, label:, path:, in:).
import type { FakeRequest } from '../../fake-api/index.js';
import type { FakeGitHub } from './fake-github.js';
import { ghError, paged, Reply } from './http.js';
import { fullRepo, minimalRepo, simpleUser } from './objects.js';
import { issueObject } from './objects-issues.js';
import type { RepoRecord } from './state.js';

interface Query {
  terms: string[];
  qualifiers: Map<string, string[]>;
}

function parseQuery(req: FakeRequest): Query {
  const q = req.query.get('q');
  if (!q?.trim())
    throw new Reply(
      ghError(422, 'Validation Failed', { errors: [{ resource: 'Search', field: 'q', code: 'missing' }] }),
    );
  const terms: string[] = [];
  const qualifiers = new Map<string, string[]>();
  for (const token of q.match(/"[^"]*"|\S+/g) ?? []) {
    const m = /^(\w+):(.+)$/.exec(token);
    if (m?.[1] && m[2])
      qualifiers.set(m[1].toLowerCase(), [...(qualifiers.get(m[1].toLowerCase()) ?? []), m[2]]);
    else terms.push(token.replace(/^"|"$/g, '').toLowerCase());
  }
  return { terms, qualifiers };
}

function repoAllowed(repo: RepoRecord, q: Query): boolean {
  const full = `${repo.owner}/${repo.name}`.toLowerCase();
  const repos = q.qualifiers.get('repo');
  if (repos && !repos.some((r) => r.toLowerCase() === full)) return false;
  const owners = [...(q.qualifiers.get('user') ?? []), ...(q.qualifiers.get('org') ?? [])];
  if (owners.length && !owners.some((o) => o.toLowerCase() === repo.owner.toLowerCase())) return false;
  return true;
}

const has = (text: string | null | undefined, terms: string[]) =>
  terms.every((t) => (text ?? '').toLowerCase().includes(t));

export function registerSearchRoutes(gh: FakeGitHub): void {
  const { state, urls } = gh;
  const origin = new URL(gh.url).origin;
  const visible = (who: string | undefined) => state.repos.filter((r) => state.canRead(r, who));
  const result = (req: FakeRequest, items: unknown[], extra: Record<string, unknown> = {}) => {
    const page = paged(req, origin, items);
    return {
      body: { total_count: items.length, incomplete_results: false, items: page.items, ...extra },
      headers: page.headers,
    };
  };

  gh.route('GET', '/search/repositories', (req, who) => {
    const q = parseQuery(req);
    const items = visible(who)
      .filter((r) => repoAllowed(r, q) && has(`${r.owner}/${r.name} ${r.description ?? ''}`, q.terms))
      .map((r) => ({ ...fullRepo(state, r, urls), score: 1 }));
    return result(req, items);
  });

  gh.route('GET', '/search/code', (req, who) => {
    const q = parseQuery(req);
    const paths = q.qualifiers.get('path') ?? [];
    const items: unknown[] = [];
    for (const repo of visible(who).filter((r) => repoAllowed(r, q))) {
      const head = repo.branches.get(repo.defaultBranch);
      if (!head) continue;
      for (const [path, sha] of repo.store.filesOf(head)) {
        if (paths.length && !paths.some((p) => path.startsWith(p.replace(/^\//, '')))) continue;
        if (!has(`${path}\n${repo.store.blobs.get(sha)?.toString('utf8') ?? ''}`, q.terms)) continue;
        const enc = path.split('/').map(encodeURIComponent).join('/');
        items.push({
          name: path.split('/').pop() ?? path,
          path,
          sha,
          url: `${urls.api}/repos/${repo.owner}/${repo.name}/contents/${enc}?ref=${head}`,
          git_url: `${urls.api}/repos/${repo.owner}/${repo.name}/git/blobs/${sha}`,
          html_url: `${urls.web}/${repo.owner}/${repo.name}/blob/${head}/${enc}`,
          repository: minimalRepo(state, repo, urls),
          score: 1,
        });
      }
    }
    return result(req, items);
  });

  gh.route('GET', '/search/issues', (req, who) => {
    const q = parseQuery(req);
    const is = q.qualifiers.get('is') ?? [];
    const st = [...(q.qualifiers.get('state') ?? []), ...is.filter((v) => v === 'open' || v === 'closed')];
    const authors = q.qualifiers.get('author') ?? [];
    const labels = q.qualifiers.get('label') ?? [];
    const items: unknown[] = [];
    for (const repo of visible(who).filter((r) => repoAllowed(r, q))) {
      for (const issue of repo.issues) {
        if (is.includes('issue') && issue.pull) continue;
        if ((is.includes('pr') || q.qualifiers.has('type')) && !issue.pull) continue;
        if (st.length && !st.includes(issue.state)) continue;
        if (authors.length && !authors.some((a) => a.toLowerCase() === issue.user.toLowerCase())) continue;
        if (!labels.every((l) => issue.labels.includes(l))) continue;
        if (!has(`${issue.title}\n${issue.body ?? ''}`, q.terms)) continue;
        items.push({ ...issueObject(state, repo, issue, urls), score: 1 });
      }
    }
    return result(req, items, { search_type: 'lexical' });
  });

  gh.route('GET', '/search/users', (req, _who) => {
    const q = parseQuery(req);
    const items = [...state.users.values()]
      .filter((u) => has(`${u.login} ${u.name ?? ''}`, q.terms))
      .filter(
        (u) =>
          !q.qualifiers.has('type') ||
          q.qualifiers
            .get('type')
            ?.some(
              (t) => t.toLowerCase() === u.type.toLowerCase() || (t === 'org' && u.type === 'Organization'),
            ),
      )
      .map((u) => ({ ...simpleUser(u, urls), score: 1 }));
    return result(req, items);
  });
}
