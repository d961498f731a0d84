// ALL-05 pagination contract for the protocol's own lists: every page reachable through
// nextCursor, nothing listed twice, and a made-up cursor rejected with a JSON-RPC error.
import { ProtocolError, type ServerCapabilities } from '@modelcontextprotocol/client';
import type { Connection } from '../connect.js';
import { errorMessage } from '../connect.js';
import { findDuplicates, followPages } from '../pagination.js';
import { answersToolsList, type CheckContext, type CheckResult, capabilities } from './context.js';

/** The cursor sent to test rejection of cursors the server never issued. */
export const INVALID_CURSOR = 'harness-invalid-cursor-%%%';

interface ListSpec {
  method: 'tools/list' | 'resources/list' | 'resources/templates/list' | 'prompts/list';
  capability: keyof ServerCapabilities;
  items: string;
  key: string;
}

const LISTS: ListSpec[] = [
  { method: 'tools/list', capability: 'tools', items: 'tools', key: 'name' },
  { method: 'resources/list', capability: 'resources', items: 'resources', key: 'uri' },
  {
    method: 'resources/templates/list',
    capability: 'resources',
    items: 'resourceTemplates',
    key: 'uriTemplate',
  },
  { method: 'prompts/list', capability: 'prompts', items: 'prompts', key: 'name' },
];

type Page = Record<string, unknown> & { nextCursor?: string };

/** Checks one list method on `conn`; returns failure lines and note lines. */
async function checkList(conn: Connection, spec: ListSpec, timeoutMs: number) {
  const failures: string[] = [];
  const notes: string[] = [];
  const fetch = (cursor: string | undefined) =>
    conn.client.request(
      { method: spec.method, params: cursor === undefined ? {} : { cursor } },
      { timeout: timeoutMs },
    ) as Promise<Page>;
  try {
    const walk = await followPages(fetch, (page) => page.nextCursor || undefined);
    const items = walk.pages.flatMap((page) =>
      Array.isArray(page[spec.items]) ? (page[spec.items] as unknown[]) : [],
    );
    const dups = findDuplicates(items, (item) => String((item as Record<string, unknown>)[spec.key]));
    if (dups.length > 0)
      failures.push(`${spec.method}: listed more than once: ${dups.slice(0, 10).join(', ')}`);
    notes.push(`${spec.method}: ${items.length} item(s) in ${walk.pages.length} page(s)`);
  } catch (error) {
    failures.push(`${spec.method}: ${errorMessage(error)}`);
  }
  try {
    const page = await fetch(INVALID_CURSOR);
    const count = Array.isArray(page[spec.items]) ? (page[spec.items] as unknown[]).length : 0;
    failures.push(
      `${spec.method}: invalid cursor accepted (returned ${count} item(s)) instead of a JSON-RPC error`,
    );
  } catch (error) {
    if (!(error instanceof ProtocolError))
      failures.push(`${spec.method}: invalid cursor: no answer (${errorMessage(error)})`);
  }
  const alive = await answersToolsList(conn, 5000);
  if (alive !== true) failures.push(`${spec.method}: after invalid cursor: ${alive}`);
  return { failures, notes };
}

/** ALL-05: {@link checkList} for tools, resources, resource templates and prompts (those advertised). */
export async function checkPagination(ctx: CheckContext): Promise<CheckResult> {
  const failures: string[] = [];
  const notes: string[] = [];
  for (const spec of LISTS) {
    const conn = await ctx.main();
    if (!capabilities(conn)[spec.capability]) {
      notes.push(`${spec.method}: capability "${spec.capability}" not advertised; skipped`);
      continue;
    }
    const result = await checkList(conn, spec, ctx.callTimeoutMs);
    failures.push(...result.failures);
    notes.push(...result.notes);
  }
  return {
    id: 'ALL-05',
    name: 'pagination contract',
    ok: failures.length === 0,
    details: [...failures, ...notes],
  };
}
