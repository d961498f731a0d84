/**
 * Repository contents as MCP resources: the template `repo://{owner}/{repo}/contents{/path*}`
 * (RFC 6570 path expansion: each path segment percent-encoded). resources/read returns a file's
 * exact bytes — text as text (UTF-8), anything else as a base64 blob — or a directory as a JSON
 * listing; `?ref=` is not part of the template: the default branch is read. There is no
 * enumeration (resources/list is empty: a repository tree is listed by get_repository_tree), and
 * both lists refuse cursors they never issued (ALL-05). The --repos scope applies.
 */
import { type McpServer, type ReadResourceResult, ResourceNotFoundError } from '@modelcontextprotocol/server';
import { describeError, encodePath } from '@refmcp/shared';
import { completionCacheFor, invalidParams as invalid, registerResourceSet } from '@refmcp/shared/server';
import { githubCompleters } from './completions.js';
import type { Config } from './config.js';
import { contentsUri, mimeType, readContents } from './files.js';
import { GitHubApiError } from './github/errors.js';
import { OWNER_PATTERN, REPO_PATTERN } from './names.js';

export const CONTENTS_TEMPLATE = 'repo://{owner}/{repo}/contents{/path*}';
/** Largest file served as a resource, in bytes. */
export const MAX_RESOURCE_BYTES = 8 * 1024 * 1024;

/** owner, repo and path of a repo:// contents URI; InvalidParams for anything else. */
export function parseContentsUri(uri: string): { owner: string; repo: string; path: string } {
  const m = /^repo:\/\/([^/?#]+)\/([^/?#]+)\/contents(?:\/([^?#]*))?$/.exec(uri);
  if (!m?.[1] || !m[2])
    throw invalid(`Not a repository contents URI (expected ${CONTENTS_TEMPLATE}): ${uri}`);
  let owner: string;
  let repo: string;
  let path: string;
  try {
    owner = decodeURIComponent(m[1]);
    repo = decodeURIComponent(m[2]);
    path = (m[3] ?? '').split('/').filter(Boolean).map(decodeURIComponent).join('/');
  } catch {
    throw invalid(`Malformed percent-encoding in ${uri}`);
  }
  if (!OWNER_PATTERN.test(owner) || !REPO_PATTERN.test(repo))
    throw invalid(`Invalid owner or repository name in ${uri}`);
  try {
    encodePath(path, 'path');
  } catch (error) {
    throw invalid(describeError(error));
  }
  return { owner, repo, path };
}

/** The contents of a repo:// URI: a file's bytes (text or blob) or a directory listing as JSON. */
async function readResource(config: Config, uri: string): Promise<ReadResourceResult> {
  const { owner, repo, path } = parseContentsUri(uri);
  let contents: Awaited<ReturnType<typeof readContents>>;
  try {
    contents = await readContents(config, owner, repo, path, undefined);
  } catch (error) {
    if (error instanceof GitHubApiError && error.status === 404)
      throw new ResourceNotFoundError(uri, error.message);
    throw error;
  }
  if (contents.kind === 'dir')
    return {
      contents: [
        {
          uri,
          mimeType: 'application/json',
          text: JSON.stringify(
            contents.entries.map((e) => ({ ...e, uri: contentsUri(owner, repo, e.path) })),
          ),
        },
      ],
    };
  if (contents.kind === 'other')
    return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(contents) }] };
  if (contents.bytes.length > MAX_RESOURCE_BYTES)
    throw invalid(
      `${path} is ${contents.bytes.length} bytes, over the ${MAX_RESOURCE_BYTES}-byte resource limit`,
    );
  if (contents.text !== undefined)
    return { contents: [{ uri, mimeType: mimeType(path, true), text: contents.text }] };
  return { contents: [{ uri, mimeType: mimeType(path, false), blob: contents.bytes.toString('base64') }] };
}

/** The repo:// template; no listing; reads through the --repos scope. */
export function registerResources(server: McpServer, config: Config): void {
  registerResourceSet(server, {
    templates: [
      {
        name: 'repository-contents',
        uriTemplate: CONTENTS_TEMPLATE,
        title: 'Repository contents',
        description: `A file (exact bytes: text, or a base64 blob) or a directory listing (JSON) of a GitHub repository's default branch, up to ${MAX_RESOURCE_BYTES / 1024 / 1024} MB.${config.scope ? ` Limited to ${config.scope.description}.` : ''}`,
        complete: (({ owner, repo, path }) => ({ owner, repo, path }))(githubCompleters(config)),
      },
    ],
    completion: { cache: completionCacheFor(config) },
    read: (uri) => readResource(config, uri),
    secrets: config.token ? [config.token] : [],
  });
}
