/**
 * Reading repository contents (get_file_contents and the repo:// resource): directories as
 * entries; files decoded from the contents API, or — over 1 MB, where GitHub omits the content —
 * fetched through the raw media type (application/vnd.github.raw+json). Text is detected by
 * strict UTF-8 decoding and the absence of NUL; anything else is binary and is never decoded as
 * text (no mojibake).
 */
import { encodePath, ToolError } from '@refmcp/shared';
import type { ResourceLink } from '@refmcp/shared/server';
import type { Config } from './config.js';
import { repoPath } from './tools/common.js';

export interface DirEntry {
  type: string;
  name: string;
  path: string;
  sha: string;
  size: number;
}

export type Contents =
  | { kind: 'dir'; path: string; entries: DirEntry[] }
  | {
      kind: 'file';
      path: string;
      sha: string;
      size: number;
      bytes: Buffer;
      text?: string;
      htmlUrl: string | null;
      downloadUrl: string | null;
    }
  | { kind: 'other'; path: string; type: string; sha: string; target?: string };

const decoder = new TextDecoder('utf-8', { fatal: true });

/** The text of `bytes` when it is UTF-8 without NUL (a BOM is dropped), else undefined. */
export function asText(bytes: Buffer): string | undefined {
  if (bytes.subarray(0, 8192).includes(0)) return undefined;
  try {
    return decoder.decode(bytes).replace(/^\uFEFF/, '');
  } catch {
    return undefined;
  }
}

/** The contents URL path for owner/repo/path (segments encoded, dot segments refused). */
export function contentsPath(config: Config, owner: string, repo: string, path: string): string {
  return `${repoPath(config, owner, repo)}/contents/${encodePath(path, 'path')}`;
}

/**
 * Reads a file or directory at `ref` (default branch when omitted). Errors: GitHubApiError (404
 * missing, …), ToolError for a file larger than the server's response limit.
 */
export async function readContents(
  config: Config,
  owner: string,
  repo: string,
  path: string,
  ref: string | undefined,
  signal?: AbortSignal,
): Promise<Contents> {
  const url = contentsPath(config, owner, repo, path);
  const query = ref ? { ref } : {};
  const res = await config.github.request<unknown>({ path: url, query, ...(signal ? { signal } : {}) });
  if (Array.isArray(res.data)) {
    const entries = res.data.map((e: DirEntry) => ({
      type: e.type,
      name: e.name,
      path: e.path,
      sha: e.sha,
      size: e.size,
    }));
    return { kind: 'dir', path, entries };
  }
  const file = res.data as {
    type: string;
    path: string;
    sha: string;
    size: number;
    encoding?: string;
    content?: string;
    target?: string;
    html_url: string | null;
    download_url: string | null;
  };
  if (file.type !== 'file')
    return {
      kind: 'other',
      path: file.path,
      type: file.type,
      sha: file.sha,
      ...(file.target ? { target: file.target } : {}),
    };
  let bytes: Buffer;
  if (file.encoding === 'base64' && typeof file.content === 'string')
    bytes = Buffer.from(file.content, 'base64');
  else {
    if (file.size > config.budgets.responseBytes)
      throw new ToolError(
        `${path} is ${file.size} bytes, over this server's ${config.budgets.responseBytes}-byte download limit; download it from ${file.download_url ?? file.html_url ?? 'GitHub'} instead`,
      );
    const raw = await config.github.request<Buffer>({
      path: url,
      query,
      accept: 'application/vnd.github.raw+json',
      bytes: true,
      ...(signal ? { signal } : {}),
    });
    bytes = raw.data;
  }
  const text = asText(bytes);
  return {
    kind: 'file',
    path: file.path,
    sha: file.sha,
    size: file.size,
    bytes,
    ...(text !== undefined ? { text } : {}),
    htmlUrl: file.html_url,
    downloadUrl: file.download_url,
  };
}

const MIME: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  pdf: 'application/pdf',
  zip: 'application/zip',
  gz: 'application/gzip',
  wasm: 'application/wasm',
  md: 'text/markdown',
  json: 'application/json',
  ts: 'text/x-typescript',
  js: 'text/javascript',
  py: 'text/x-python',
  html: 'text/html',
  css: 'text/css',
  yml: 'application/yaml',
  yaml: 'application/yaml',
};

/** A MIME type from the file extension (text/plain or application/octet-stream by default). */
export function mimeType(path: string, isText: boolean): string {
  const ext = /\.([A-Za-z0-9]+)$/.exec(path)?.[1]?.toLowerCase() ?? '';
  return MIME[ext] ?? (isText ? 'text/plain' : 'application/octet-stream');
}

/** The resource URI of a path: repo://owner/repo/contents/<encoded path>. */
export function contentsUri(owner: string, repo: string, path: string): string {
  return `repo://${owner}/${repo}/contents${path ? `/${encodePath(path, 'path')}` : ''}`;
}

/**
 * The `resource_link` to `path`'s repo:// resource (which reads the default branch: link only what
 * a result read there), named `name` (the path as the result shows it, neutralised), with its size
 * in bytes when known; none for a path no URI can name (a `..` segment from upstream).
 */
export function contentsLink(
  owner: string,
  repo: string,
  path: string,
  name: string,
  size?: number,
): ResourceLink[] {
  try {
    return [{ uri: contentsUri(owner, repo, path), name, ...(size !== undefined ? { size } : {}) }];
  } catch {
    return [];
  }
}
