/**
 * Resources:
 * - `memo://insights` (as in the reference server): the insights memo; after every append_insight
 *   the server sends notifications/resources/updated for it (as the reference does; on the
 *   2026-07-28 era the SDK's stdio entry forwards it only to listening clients). It is the only
 *   resource that changes while the server runs, so a 2026-07-28 `subscriptions/listen` is
 *   acknowledged with memo://insights alone (ConnectionContext.serveResourceListen; issue 28).
 * - `sqlite://schema/{table}`: one table's or view's schema as JSON (describe_table's data), with
 *   completion of table names. resources/list pages through the memo and every table's schema
 *   resource with a cursor; resources/templates/list has one page. Made-up cursors are refused with
 *   JSON-RPC -32602 (MCP spec 2025-11-25, "Pagination"; case ALL-05).
 */
import {
  type McpServer,
  type ReadResourceResult,
  type Resource,
  UriTemplate,
} from '@modelcontextprotocol/server';
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
import type { Config } from './config.js';
import { SCHEMA_PREFIX, schemaUri } from './schema-uri.js';
import { describeTable, listTablesPage } from './tools/schema.js';

export const MEMO_URI = 'memo://insights';
export const SCHEMA_TEMPLATE = 'sqlite://schema/{table}';

/** Table names offered per completion request. */
const COMPLETION_LIMIT = 100;

const MEMO = {
  name: 'insights',
  title: 'Business Insights Memo',
  description: 'A living document of insights discovered from the data (added with append_insight).',
  mimeType: 'text/plain',
};
const SCHEMA = {
  title: 'Table schema',
  description:
    "A table's or view's columns, indexes, foreign keys and CREATE statement as JSON; {table} is the name, " +
    'percent-encoded.',
  mimeType: 'application/json',
};

export { schemaUri } from './schema-uri.js';

/** The table name in a schema resource URI, or undefined when the URI is not one. */
export function tableFromUri(uri: string): string | undefined {
  if (!uri.startsWith(SCHEMA_PREFIX)) return undefined;
  try {
    const name = decodeURIComponent(uri.slice(SCHEMA_PREFIX.length));
    return name === '' ? undefined : name;
  } catch {
    return undefined;
  }
}

/** Where a resources/list page starts: after table `after` (the cursor's position). */
const LIST_POSITION = z.object({ after: z.string() });
type ListPosition = z.infer<typeof LIST_POSITION>;

/** A page of table schema resources (the memo is the set's fixed resource, first on page one). */
async function listResources(
  config: Config,
  start: ListPosition | undefined,
): Promise<ResourcePage<ListPosition>> {
  const page = await listTablesPage(config.pool, start?.after, config.maxRows);
  const resources: Resource[] = page.tables.map((t) => ({
    uri: schemaUri(t.name),
    name: `schema/${t.name}`,
    title: `Schema of ${t.type} ${t.name}`,
    mimeType: 'application/json',
  }));
  const last = page.tables.at(-1);
  return { resources, ...(page.more && last ? { next: { after: last.name } } : {}) };
}

const SCHEMA_URIS = new UriTemplate(SCHEMA_TEMPLATE);

/** The memo, or a table's schema as JSON; undefined for a URI that names neither. */
async function readResource(config: Config, uri: string): Promise<ReadResourceResult | undefined> {
  const href = parseResourceUri(uri).href;
  if (href === MEMO_URI)
    return { contents: [{ uri: MEMO_URI, mimeType: 'text/plain', text: config.memo.render() }] };
  if (!SCHEMA_URIS.match(href)) return undefined;
  const name = tableFromUri(href);
  if (name === undefined) throw invalid(`Resource URI ${JSON.stringify(href)} names no table`);
  const table = await describeTable(config.pool, name);
  if (!table) return undefined;
  return { contents: [{ uri: href, mimeType: 'application/json', text: JSON.stringify(table, null, 2) }] };
}

/**
 * 2026-07-28 listens: of the URIs asked for, only memo://insights (spelt exactly so, as its updates
 * are) is honoured; its updates are sent on every change already (below), so there is nothing to
 * start or stop.
 */
export const memoListen: ResourceListen = {
  open: async (_id, uris) => uris.filter((uri) => uri === MEMO_URI),
  close: () => {},
};

/**
 * 2026-07-28 listens over HTTP (ServerSpec.resourceListen): memo://insights alone is honoured, and
 * each change of the memo is `updated(MEMO_URI)`, sent to the streams acknowledged for it.
 */
export function processMemoListen(config: Config, context: { updated(uri: string): void }): ResourceListen {
  config.memo.onChange(() => context.updated(MEMO_URI));
  return memoListen;
}

/** memo://insights and sqlite://schema/{table}, with completion of table names and memo updates. */
export function registerResources(server: McpServer, config: Config, context: ConnectionContext): void {
  context.serveResourceListen(memoListen);
  /** Whether this connection's client subscribed to memo://insights (2025-era resources/subscribe). */
  let subscribed = false;
  registerResourceSet(server, {
    resources: [{ uri: MEMO_URI, ...MEMO }],
    templates: [
      {
        name: 'schema',
        uriTemplate: SCHEMA_TEMPLATE,
        ...SCHEMA,
        complete: {
          table: async ({ value }) => {
            try {
              const result = await config.pool.read({ op: 'names', prefix: value, limit: COMPLETION_LIMIT });
              return result.op === 'names' ? result.names : [];
            } catch {
              return [];
            }
          },
        },
      },
    ],
    // Pages through the tables.
    list: { cursor: LIST_POSITION, page: (after) => listResources(config, after) },
    read: (uri) => readResource(config, uri),
    // Only the memo changes while the server runs; subscribing to anything else would never notify.
    subscriptions: {
      subscribe: async (uri) => {
        if (uri !== MEMO_URI)
          throw invalid(`Only ${MEMO_URI} sends updates; ${JSON.stringify(uri)} cannot be subscribed to`);
        subscribed = true;
      },
      unsubscribe: async (uri) => {
        if (uri === MEMO_URI) subscribed = false;
      },
    },
    listChanged: true,
  });

  const stop = config.memo.onChange(() => {
    // Up to 2025-11-25 an update goes only to a client that subscribed (resources/subscribe) and has
    // not unsubscribed; from 2026-07-28 the SDK routes it to the client's subscriptions/listen filters.
    const modern = (server.server.getNegotiatedProtocolVersion() ?? '') >= '2026-07-28';
    if (!subscribed && !modern) return;
    server.server
      .sendResourceUpdated({ uri: MEMO_URI })
      .catch((error: unknown) => context.log.warn(`resources/updated: ${describeError(error)}`));
  });
  context.shutdown.addEventListener('abort', stop, { once: true });
  const previousOnClose = server.server.onclose;
  server.server.onclose = () => {
    previousOnClose?.();
    stop();
  };
}
