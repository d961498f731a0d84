/**
 * Resources:
 * - `memo://insights` (as in the reference server): the insights memo; after every append_insight
 *   the server sends notifications/resources/updated for it (as the reference does; on the
 *   2026-07-28 era the SDK's stdio entry forwards it only to listening clients).
 * - `sqlite://schema/{table}`: one table's or view's schema as JSON (describe_table's data), with
 *   completion of table names. resources/list pages through the memo and every table's schema
 *   resource with a cursor; resources/templates/list has one page. Made-up cursors are refused with
 *   JSON-RPC -32602 (MCP spec 2025-11-25, "Pagination"; case ALL-05).
 */
import {
  type ListResourcesResult,
  type McpServer,
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  ResourceTemplate,
} from '@modelcontextprotocol/server';
import { type ConnectionContext, decodeCursor, describeError, encodeCursor } from '@refmcp/shared/server';
import type { Config } from './config.js';
import { describeTable, listTablesPage } from './tools/schema.js';

export const MEMO_URI = 'memo://insights';
export const SCHEMA_TEMPLATE = 'sqlite://schema/{table}';
const SCHEMA_PREFIX = 'sqlite://schema/';
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

function invalid(message: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, message);
}

/** The schema resource URI of table `name`. */
export function schemaUri(name: string): string {
  return `${SCHEMA_PREFIX}${encodeURIComponent(name)}`;
}

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

async function listResources(config: Config, cursor: string | undefined): Promise<ListResourcesResult> {
  let after: string | undefined;
  if (cursor !== undefined) {
    let state: { after?: unknown };
    try {
      state = decodeCursor<{ after?: unknown }>(cursor);
    } catch (error) {
      throw invalid(`Invalid cursor for resources/list: ${(error as Error).message}`);
    }
    if (typeof state.after !== 'string') throw invalid('Invalid cursor for resources/list');
    after = state.after;
  }
  let page: Awaited<ReturnType<typeof listTablesPage>>;
  try {
    page = await listTablesPage(config.pool, after, config.maxRows);
  } catch (error) {
    throw new ProtocolError(ProtocolErrorCode.InternalError, `resources/list: ${describeError(error)}`);
  }
  const resources: ListResourcesResult['resources'] = [];
  if (after === undefined) resources.push({ uri: MEMO_URI, ...MEMO });
  for (const t of page.tables) {
    resources.push({
      uri: schemaUri(t.name),
      name: `schema/${t.name}`,
      title: `Schema of ${t.type} ${t.name}`,
      mimeType: 'application/json',
    });
  }
  const last = page.tables.at(-1);
  return { resources, ...(page.more && last ? { nextCursor: encodeCursor({ after: last.name }) } : {}) };
}

export function registerResources(server: McpServer, config: Config, context: ConnectionContext): void {
  server.registerResource(MEMO.name, MEMO_URI, MEMO, async () => ({
    contents: [{ uri: MEMO_URI, mimeType: 'text/plain', text: config.memo.render() }],
  }));

  const template = new ResourceTemplate(SCHEMA_TEMPLATE, {
    list: undefined,
    complete: {
      table: async (value) => {
        try {
          const result = await config.pool.read({ op: 'names', prefix: value, limit: COMPLETION_LIMIT });
          return result.op === 'names' ? result.names : [];
        } catch {
          return [];
        }
      },
    },
  });
  server.registerResource('schema', template, SCHEMA, async (uri) => {
    const name = tableFromUri(uri.href);
    if (name === undefined) throw invalid(`Resource URI ${JSON.stringify(uri.href)} names no table`);
    let table: Awaited<ReturnType<typeof describeTable>>;
    try {
      table = await describeTable(config.pool, name);
    } catch (error) {
      throw new ProtocolError(ProtocolErrorCode.InternalError, `resources/read: ${describeError(error)}`);
    }
    if (!table) throw new ResourceNotFoundError(uri.href);
    return {
      contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(table, null, 2) }],
    };
  });

  // The SDK's resources/list ignores cursors; ours pages through the tables.
  server.server.setRequestHandler('resources/list', async (request) =>
    listResources(config, request.params?.cursor),
  );
  server.server.setRequestHandler('resources/templates/list', async (request) => {
    if (request.params?.cursor !== undefined)
      throw invalid('Invalid cursor: resources/templates/list has a single page');
    return { resourceTemplates: [{ name: 'schema', uriTemplate: SCHEMA_TEMPLATE, ...SCHEMA }] };
  });

  // Only the memo changes while the server runs; subscribing to anything else would never notify.
  server.server.setRequestHandler('resources/subscribe', async (request) => {
    if (request.params.uri !== MEMO_URI)
      throw invalid(
        `Only ${MEMO_URI} sends updates; ${JSON.stringify(request.params.uri)} cannot be subscribed to`,
      );
    return {};
  });
  server.server.setRequestHandler('resources/unsubscribe', async () => ({}));

  const stop = config.memo.onChange(() => {
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
