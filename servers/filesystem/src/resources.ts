/**
 * Files under the allowed directories as MCP resources (`file://` URIs):
 * - a resource template `file://{+path}`; resources/list walks the allowed directories (files only,
 *   .gitignore honoured, .git skipped) in bounded, cursor-paginated pages;
 * - resources/read returns a file as text (UTF-8 without NUL) or as a base64 blob, within the
 *   whole-file budget, opened through the containment checks like every tool;
 * - 2025-11-25 era: resources/subscribe / unsubscribe watch the file (chokidar) and send
 *   notifications/resources/updated on change;
 * - 2026-07-28 era: there is no resources/subscribe; clients open `subscriptions/listen` with
 *   `resourceSubscriptions`, which the SDK's stdio entry serves itself; the bootstrap hands us the
 *   URIs of each acknowledgment (ConnectionContext.serveResourceListen), we watch those inside the
 *   allowed directories and the acknowledgment lists only them. A cancelled listen releases its
 *   watches (a file stays watched while another listen still names it). Over HTTP the same is done
 *   once for the whole process (processResourceListen), the stream's end releasing its watches.
 * Watchers are closed on shutdown and when the connection closes.
 */

import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  type McpServer,
  ProtocolError,
  type ReadResourceResult,
  type Resource,
  ResourceNotFoundError,
} from '@modelcontextprotocol/server';
import { pathFs as fs, openInside, PathError } from '@refmcp/shared/paths';
import { z } from '@refmcp/shared/schema';
import {
  type ConnectionContext,
  describeError,
  invalidParams as invalid,
  parseResourceUri,
  type ResourceListen,
  type ResourcePage,
  registerResourceSet,
} from '@refmcp/shared/server';
import { pathCompleter } from './completions.js';
import type { Config } from './config.js';
import { looksBinary } from './grep.js';
import { GitignoreRules } from './ignore-rules.js';
import { mediaTypeOf, mimeTypeFromName } from './media.js';
import { ResourceWatches } from './resource-watch.js';
import { Walker } from './walk.js';

/** Most explicit subscriptions (2025 era) held at once. */
export const MAX_SUBSCRIPTIONS = 1000;
/** Most files watched for a modern client's listen streams, across all of them. */
export const MAX_LISTEN_WATCHES = 1000;
/**
 * Files one listen may watch: a tenth of the process's MAX_LISTEN_WATCHES, so that over HTTP (one
 * set of watches for every client) a single request cannot take the whole budget from the others.
 */
export const MAX_WATCHES_PER_LISTEN = 100;

const TEXT_TYPES: Record<string, string> = {
  '.md': 'text/markdown',
  '.markdown': 'text/markdown',
  '.json': 'application/json',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.cjs': 'text/javascript',
  '.ts': 'text/x-typescript',
  '.html': 'text/html',
  '.htm': 'text/html',
  '.css': 'text/css',
  '.csv': 'text/csv',
  '.xml': 'application/xml',
  '.svg': 'image/svg+xml',
  '.yaml': 'application/yaml',
  '.yml': 'application/yaml',
  '.py': 'text/x-python',
  '.sh': 'text/x-shellscript',
};

const TEMPLATE_TITLE = 'Files in the allowed directories';

function templateDescription(config: Config): string {
  return (
    'Any file under the allowed directories, by file:// URI. Text files come back as text, others as base64 ' +
    `blobs; files over ${config.maxFileBytes} bytes are refused (use read_text_file with head/tail/offset).`
  );
}

function textMimeType(name: string): string {
  return TEXT_TYPES[path.extname(name).toLowerCase()] ?? 'text/plain';
}

/** The filesystem path a `file://` URI names, or an InvalidParams error. */
export function uriToPath(uri: string): string {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    throw invalid(`Resource URI ${JSON.stringify(uri)} is not a valid URI`);
  }
  if (url.protocol !== 'file:')
    throw invalid(`Resource URI ${JSON.stringify(uri)}: only file:// URIs are served`);
  try {
    return fileURLToPath(url);
  } catch (error) {
    throw invalid(`Resource URI ${JSON.stringify(uri)}: ${(error as Error).message}`);
  }
}

/** Maps containment/IO errors to the JSON-RPC errors resources/read and subscribe answer with. */
function toProtocolError(error: unknown, uri: string): Error {
  if (error instanceof ProtocolError) return error;
  if (error instanceof PathError) {
    return error.code === 'not_found' ? new ResourceNotFoundError(uri) : invalid(error.message);
  }
  return invalid(describeError(error));
}

/** The canonical path to watch for `uri` (inside the allowed directories; it need not exist yet). */
async function watchTarget(config: Config, uri: string): Promise<{ real: string; directory: boolean }> {
  const filePath = uriToPath(uri);
  try {
    const resolved = await config.workspace.roots.resolve(filePath);
    const directory = resolved.exists && (await fs.stat(resolved.real)).isDirectory();
    return { real: resolved.real, directory };
  } catch (error) {
    throw toProtocolError(error, uri);
  }
}

/** The text of `bytes` if they are valid UTF-8, else undefined (served as a blob). */
function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

async function readResource(
  config: Config,
  uri: string,
): Promise<{ result: ReadResourceResult; real: string }> {
  const filePath = uriToPath(uri);
  let opened: Awaited<ReturnType<typeof openInside>>;
  try {
    opened = await openInside(config.workspace.roots, filePath);
  } catch (error) {
    throw toProtocolError(error, uri);
  }
  try {
    const size = opened.stat.size;
    if (size > config.maxFileBytes) {
      throw invalid(
        `${filePath} is ${size} bytes, over the ${config.maxFileBytes}-byte limit for a whole read; ` +
          'read it in parts with the read_text_file tool (head, tail, offset/limit)',
      );
    }
    const bytes = await opened.handle.readFile();
    const name = path.basename(filePath);
    const text = looksBinary(bytes) ? undefined : decodeUtf8(bytes);
    return {
      real: opened.path.real,
      result: {
        contents: [
          text !== undefined
            ? { uri, mimeType: textMimeType(name), text }
            : {
                uri,
                mimeType: mediaTypeOf(name, bytes.subarray(0, 64)).mimeType,
                blob: bytes.toString('base64'),
              },
        ],
      },
    };
  } catch (error) {
    throw toProtocolError(error, uri);
  } finally {
    await opened.handle.close().catch(() => {});
  }
}

/** Where a resources/list page starts: after `after` in root `i` (the cursor's position). */
const LIST_POSITION = z.object({
  /** Index of the root being walked. */
  i: z.number().int().nonnegative(),
  /** Last relative path handed out in that root. */
  after: z.string().optional(),
});
type ListPosition = z.infer<typeof LIST_POSITION>;

async function listResources(
  config: Config,
  start: ListPosition | undefined,
): Promise<ResourcePage<ListPosition>> {
  const position: ListPosition = start ?? { i: 0 };
  const roots = config.workspace.roots;
  const resources: Resource[] = [];
  const deadline = performance.now() + config.walkTimeoutMs;
  // Where the page's last resource sits: the next page starts after it.
  let lastTaken: ListPosition | undefined;
  for (let i = position.i; i < roots.roots.length; i++) {
    const root = roots.roots[i];
    if (!root) break;
    const gitignore = new GitignoreRules();
    const walker = new Walker(root.real, {
      contains: (real) => roots.containsReal(real),
      deadline,
      ...(i === position.i && position.after ? { after: position.after } : {}),
      prune: (e) => gitignore.ignores(e),
      enterDirectory: (rel, real, at) => gitignore.enter(rel, real, at),
    });
    for await (const e of walker) {
      if (!(e.kind === 'file' || (e.kind === 'symlink' && e.target === 'file'))) continue;
      // One file beyond the page proves there is more (no empty last page).
      if (resources.length >= config.maxEntries)
        return { resources, ...(lastTaken ? { next: lastTaken } : {}) };
      const mimeType = mimeTypeFromName(e.name) ?? TEXT_TYPES[path.extname(e.name).toLowerCase()];
      resources.push({
        uri: pathToFileURL(path.join(root.configured, e.rel)).href,
        name: roots.roots.length > 1 ? `${path.basename(root.configured)}/${e.rel}` : e.rel,
        ...(mimeType ? { mimeType } : {}),
      });
      lastTaken = { i, after: e.rel };
    }
    if (walker.stats.timedOut) {
      // Resume after the last entry examined (or where this page started, if none was).
      const after = walker.stats.last ?? (i === position.i ? position.after : undefined);
      return { resources, next: after ? { i, after } : { i } };
    }
  }
  return { resources };
}

export function registerResources(server: McpServer, config: Config, context: ConnectionContext): void {
  const log = context.log;
  const notify = (uri: string) => {
    server.server
      .sendResourceUpdated({ uri })
      .catch((error: unknown) => log.warn(`resources/updated ${uri}: ${describeError(error)}`));
  };
  const onError = (error: unknown) => log.warn(`file watch: ${describeError(error)}`);
  const subscribed = new ResourceWatches({ onChange: notify, max: MAX_SUBSCRIPTIONS, onError });
  const listened = new ResourceWatches({ onChange: notify, max: MAX_LISTEN_WATCHES, onError });
  const closeAll = () => Promise.all([subscribed.closeAll(), listened.closeAll()]);
  context.serveResourceListen(listenWatches(config, listened, onError));

  registerResourceSet(server, {
    templates: [
      {
        name: 'file',
        uriTemplate: 'file://{+path}',
        title: TEMPLATE_TITLE,
        description: templateDescription(config),
        complete: { path: pathCompleter(config) },
      },
    ],
    // Pages through the walk of every allowed directory.
    list: { cursor: LIST_POSITION, page: (after) => listResources(config, after) },
    read: async (uri) => {
      const url = parseResourceUri(uri);
      if (url.protocol !== 'file:') return undefined; // the one template, file://{+path}, matches no other URI
      return (await readResource(config, url.href)).result;
    },
    subscriptions: {
      subscribe: async (uri) => {
        const { real, directory } = await watchTarget(config, uri);
        if (!(await subscribed.add(uri, real, { directory }))) {
          throw invalid(`Too many subscriptions (limit ${MAX_SUBSCRIPTIONS}); unsubscribe from some first`);
        }
      },
      unsubscribe: (uri) => subscribed.remove(uri),
    },
  });

  context.shutdown.addEventListener('abort', () => void closeAll(), { once: true });
  const previousOnClose = server.server.onclose;
  server.server.onclose = () => {
    previousOnClose?.();
    void closeAll();
  };
}

/**
 * 2026-07-28 listens over HTTP (ServerSpec.resourceListen): one set of watches for the whole
 * process, at most MAX_LISTEN_WATCHES files, inside the operator's allowed directories (a stateless
 * request carries no connection whose roots could narrow them); a change of a watched file is
 * `updated(uri)`, sent to each stream acknowledged for it.
 */
export function processResourceListen(
  config: Config,
  context: { updated(uri: string): void; log: ConnectionContext['log'] },
): ResourceListen {
  const onError = (error: unknown) => context.log.warn(`file watch: ${describeError(error)}`);
  const watches = new ResourceWatches({ onChange: context.updated, max: MAX_LISTEN_WATCHES, onError });
  return listenWatches(config, watches, onError);
}

/**
 * The 2026-07-28 listen streams' share of `watches`: each acknowledged URI inside the allowed
 * directories is watched until every listen naming it is cancelled; the others (outside, not
 * file://, past MAX_WATCHES_PER_LISTEN distinct URIs, over MAX_LISTEN_WATCHES) are left out of the
 * acknowledgment.
 */
function listenWatches(
  config: Config,
  watches: ResourceWatches,
  onError: (error: unknown) => void,
): ResourceListen {
  type Id = string | number;
  const uris = new Map<Id, string[]>();
  const holders = new Map<string, Set<Id>>();
  const watch = async (id: Id, uri: string): Promise<boolean> => {
    try {
      const { real, directory } = await watchTarget(config, uri);
      if (!(await watches.add(uri, real, { directory }))) return false;
    } catch {
      return false; // not a file:// URI inside the allowed directories: not acknowledged
    }
    const held = holders.get(uri) ?? new Set<Id>();
    held.add(id);
    holders.set(uri, held);
    return true;
  };
  return {
    open: async (id, asked) => {
      const distinct = [...new Set(asked)].slice(0, MAX_WATCHES_PER_LISTEN);
      const kept = await Promise.all(distinct.map((uri) => watch(id, uri)));
      const honoured = distinct.filter((_, i) => kept[i]);
      uris.set(id, [...(uris.get(id) ?? []), ...honoured]);
      return honoured;
    },
    close: (id) => {
      for (const uri of uris.get(id) ?? []) {
        const held = holders.get(uri);
        held?.delete(id);
        if (held?.size) continue;
        holders.delete(uri);
        void watches.remove(uri).catch(onError);
      }
      uris.delete(id);
    },
  };
}
