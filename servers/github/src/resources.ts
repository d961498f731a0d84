/**
 * Repository contents as MCP resources: the template `repo://{owner}/{repo}/contents{/path*}`
 * (RFC 6570 path expansion: each path segment percent-encoded). resources/read returns a file's
 * exact bytes — text as text (UTF-8), anything else as a base64 blob — or a directory as a JSON
 * listing; `?ref=` is not part of the template: the default branch is read. There is no
 * enumeration (resources/list is empty: a repository tree is listed by get_repository_tree), and
 * both lists refuse cursors they never issued (ALL-05). The --repos scope applies.
 */
import {
  type McpServer,
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
} from '@modelcontextprotocol/server';
import { describeError, encodePath } from '@refmcp/shared';
import type { Config } from './config.js';
import { contentsUri, mimeType, readContents } from './files.js';
import { GitHubApiError } from './github/errors.js';
import { OWNER_PATTERN, REPO_PATTERN } from './names.js';

export const CONTENTS_TEMPLATE = 'repo://{owner}/{repo}/contents{/path*}';
/** Largest file served as a resource, in bytes. */
export const MAX_RESOURCE_BYTES = 8 * 1024 * 1024;

const invalid = (message: string) => new ProtocolError(ProtocolErrorCode.InvalidParams, message);

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

export function registerResources(server: McpServer, config: Config): void {
  const template = {
    name: 'repository-contents',
    uriTemplate: CONTENTS_TEMPLATE,
    title: 'Repository contents',
    description: `A file (exact bytes: text, or a base64 blob) or a directory listing (JSON) of a GitHub repository's default branch, up to ${MAX_RESOURCE_BYTES / 1024 / 1024} MB.${config.scope ? ` Limited to ${config.scope.description}.` : ''}`,
  };

  server.server.setRequestHandler('resources/list', async (request) => {
    if (request.params?.cursor !== undefined)
      throw invalid('Invalid cursor: this server lists no resources (use the template)');
    return { resources: [] };
  });

  server.server.setRequestHandler('resources/templates/list', async (request) => {
    if (request.params?.cursor !== undefined)
      throw invalid('Invalid cursor: resources/templates/list has a single page');
    return { resourceTemplates: [template] };
  });

  server.server.setRequestHandler('resources/read', async (request) => {
    const uri = request.params.uri;
    const { owner, repo, path } = parseContentsUri(uri);
    try {
      const contents = await readContents(config, owner, repo, path, undefined);
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
      return {
        contents: [{ uri, mimeType: mimeType(path, false), blob: contents.bytes.toString('base64') }],
      };
    } catch (error) {
      if (error instanceof ProtocolError) throw error;
      if (error instanceof GitHubApiError && error.status === 404)
        throw new ResourceNotFoundError(uri, error.message);
      throw new ProtocolError(ProtocolErrorCode.InternalError, describeError(error));
    }
  });
}
