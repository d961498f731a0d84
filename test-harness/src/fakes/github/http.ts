// Request plumbing of the fake GitHub: authentication by token, GitHub-style error bodies and
// GitHub's page rules over the toolkit's Link-header pages.
import { type FakeReply, type FakeRequest, linkPage, Reply } from '../../fake-api/index.js';
import type { GitHubState, RepoRecord } from './state.js';

export { Reply };

export const DOCS = 'https://docs.github.com/rest';

/** A GitHub error reply: {"message", "documentation_url", "status"} (basic-error). */
export function ghError(status: number, message: string, extra: Record<string, unknown> = {}): FakeReply {
  return { status, body: { message, documentation_url: DOCS, status: String(status), ...extra } };
}

/** The login a request is authenticated as; undefined for anonymous. Throws Reply(401) for an unknown token. */
export function authenticate(state: GitHubState, req: FakeRequest): string | undefined {
  const header = req.headers.authorization;
  if (!header) return undefined;
  const token = /^(?:token|bearer)\s+(\S+)$/i.exec(header)?.[1];
  const login = token ? state.tokens.get(token) : undefined;
  if (!login) throw new Reply(ghError(401, 'Bad credentials'));
  return login;
}

/** The repository named by `:owner/:repo`; 404 when missing or invisible to `who`, 403 when `push` is needed and absent. */
export function repoFor(
  state: GitHubState,
  req: FakeRequest,
  who: string | undefined,
  need: 'read' | 'push' = 'read',
): RepoRecord {
  const repo = state.repo(req.params.owner ?? '', req.params.repo ?? '');
  if (!repo || !state.canRead(repo, who)) throw new Reply(ghError(404, 'Not Found'));
  if (need === 'push' && !state.canPush(repo, who)) {
    throw new Reply(
      ghError(
        who ? 403 : 401,
        who ? 'Resource not accessible by personal access token' : 'Requires authentication',
      ),
    );
  }
  return repo;
}

/** JSON body of a request, or a 400 "Problems parsing JSON". */
export function jsonBody<T = Record<string, unknown>>(req: FakeRequest): T {
  if (!req.body) return {} as T;
  try {
    return JSON.parse(req.body) as T;
  } catch {
    throw new Reply(ghError(400, 'Problems parsing JSON'));
  }
}

/** A 422 "Validation Failed" with one `errors[]` entry. */
export function invalid(resource: string, field: string, code = 'missing_field', message?: string): Reply {
  return new Reply(
    ghError(422, 'Validation Failed', {
      errors: [{ resource, field, code, ...(message ? { message } : {}) }],
    }),
  );
}

/** Page `items` per GitHub's rules (per_page default 30, max 100) and add a Link header. */
export function paged<T>(
  req: FakeRequest,
  origin: string,
  items: T[],
): { items: T[]; headers: Record<string, string> } {
  const page = linkPage(req, items, { origin });
  return { items: page.items, headers: page.headers };
}

/** True when the request asks for a raw/diff media type (`application/vnd.github.<kind>…`). */
export function wantsMedia(req: FakeRequest, kind: 'raw' | 'diff' | 'patch'): boolean {
  return new RegExp(`application/vnd\\.github(?:\\.v3)?\\.${kind}\\b`).test(req.headers.accept ?? '');
}
