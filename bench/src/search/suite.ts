/**
 * The web-search suite (`--only websearch`): our server against each official Brave server —
 * @modelcontextprotocol/server-brave-search 0.6.2 (the reference) and @brave/brave-search-mcp-server
 * 2.x — on the same local fake Brave (the harness's fake, 127.0.0.1, free plan not enforced; no
 * network, no real key), alternated, one run per official:
 *   W1 cold start to tools/list answered — reported
 *   W2 model bytes of tools/list per tool (name + description + inputSchema, what hosts send the
 *      model every turn) — goal ≤ 1.0×
 *   W3 size of a 10-result brave_web_search answer (the text a model reads) — goal ≤ 0.5×, with a
 *      check that every title and URL of the fake's answer is in ours.
 * The officials hard-code https://api.search.brave.com; their processes get a fetch-redirect
 * preload (`node --import`) to the fake, as the GitHub suite does. The first `npx` start is row F1
 * of the firststart suite.
 */
import { BRAVE_KEY, type FakeBrave, startFakeBrave, webResult } from '@refmcp/test-harness/fakes/brave';
import { coldStartRuns, outputSizeRuns } from '../api-rows.js';
import { fetchRedirectPreload, locateApiServers, startApiSession } from '../api-servers.js';
import { type Answer, type Row, row } from '../report.js';
import type { ServerUnderTest, Side } from '../servers.js';
import { alternate, type Context, cellOf, preview, type WorkloadResult } from '../workloads/common.js';
import { toolModelBytes } from '../workloads/context.js';

/** The officials compared, each a bench dependency. */
const OFFICIALS = [
  { pkg: '@modelcontextprotocol/server-brave-search', entry: 'dist/index.js', short: 'reference 0.6.2' },
  { pkg: '@brave/brave-search-mcp-server', entry: 'dist/index.js', short: 'Brave 2.x' },
] as const;

const QUERY = 'model context protocol servers';

/**
 * Ten web results shaped like Brave's real ones: a ~200-character description with <strong>
 * highlights and an entity, three extra snippets, a profile and a thumbnail.
 */
function seedRealistic(brave: FakeBrave): void {
  const results = Array.from({ length: 10 }, (_, i) => {
    const host = ['github.com', 'modelcontextprotocol.io', 'docs.anthropic.com', 'medium.com', 'dev.to'][
      i % 5
    ];
    const url = `https://${host}/guides/mcp-servers-${i + 1}`;
    return {
      ...webResult(
        `Building <strong>Model Context Protocol</strong> servers, part ${i + 1} | ${host}`,
        url,
        `A practical guide to <strong>Model Context Protocol</strong> (MCP) <strong>servers</strong>: how hosts launch them over stdio, how tools, resources and prompts are declared, and what it&#x27;s like to ship one (part ${i + 1}).`,
        `${i + 2} days ago`,
      ),
      extra_snippets: [
        'MCP servers expose tools, resources and prompts to any MCP-capable host over stdio or HTTP.',
        'Each tool declares a JSON Schema for its input; hosts send the schema to the model every turn.',
        `Part ${i + 1} covers error handling, pagination and keeping results small for the model.`,
      ],
      profile: {
        name: host,
        url: `https://${host}`,
        long_name: host,
        img: `https://imgs.search.brave.com/${host}.png`,
      },
      thumbnail: {
        src: `https://imgs.search.brave.com/thumb/${i + 1}.jpg`,
        original: `https://${host}/og/${i + 1}.png`,
      },
    };
  });
  brave.scene.web.set(QUERY, results);
}

export async function runSearchSuite(base: Context): Promise<WorkloadResult> {
  const brave = await startFakeBrave();
  brave.setPlan({ perSecond: 1000, enforce: false });
  seedRealistic(brave);
  const rows: Row[] = [];
  const answers: Answer[] = [];
  const notes: string[] = [];
  try {
    const preload = fetchRedirectPreload(
      base.dataRoot,
      'brave-redirect.mjs',
      'https://api.search.brave.com/res/v1',
      brave.apiUrl,
    );
    for (const official of OFFICIALS) {
      const servers = locateApiServers('search', official.pkg, official.entry);
      const ctx: Context = { ...base, servers };
      base.log(
        `search vs ${servers.official.label}${servers.official.missing ? ` — ${servers.official.missing}` : ''}`,
      );
      const env = (side: Side) => ({
        BRAVE_API_KEY: BRAVE_KEY,
        ...(side === 'ours' ? { BRAVE_API_URL: brave.apiUrl } : {}),
      });
      const session = (server: ServerUnderTest, withPreload: boolean) =>
        startApiSession(server, {
          env: env(server.side),
          timeoutMs: ctx.sizes.callTimeoutMs,
          ...(withPreload && server.side === 'official' ? { preload } : {}),
        });
      const cold = await coldStartRuns(ctx, `search (${official.short})`, session);
      const listed = await alternate(ctx, 1, `search tools/list (${official.short})`, async (server) => {
        const s = await session(server, false);
        try {
          const { tools } = await s.client.listTools();
          return {
            perTool: tools.reduce((sum, t) => sum + toolModelBytes(t), 0) / tools.length,
            count: tools.length,
          };
        } finally {
          await s.close();
        }
      });
      const sized = await outputSizeRuns(ctx, 'search', session, 'brave_web_search', {
        query: QUERY,
        count: 10,
      });
      const ours = sized.ours.results[0]?.text ?? '';
      const expected = (await (
        await fetch(`${brave.apiUrl}/web/search?q=${encodeURIComponent(QUERY)}&count=10`, {
          headers: { 'x-subscription-token': BRAVE_KEY },
        })
      ).json()) as { web: { results: { title: string; url: string }[] } };
      const plain = (t: string) => t.replace(/<\/?strong>/g, '');
      const dropped = expected.web.results.filter(
        (r) => !ours.includes(plain(r.title)) || !ours.includes(r.url),
      ).length;
      rows.push(
        row({
          id: 'W1',
          name: `search cold start → tools/list vs ${official.short} (${ctx.sizes.coldStarts} starts)`,
          unit: 'ms',
          better: 'lower',
          ours: cellOf(cold.ours, (ms) => ms),
          official: cellOf(cold.official, (ms) => ms),
        }),
        row({
          id: 'W2',
          name: `search model bytes per tool vs ${official.short} (ours ${listed.ours.results[0]?.count ?? '?'} tools, official ${listed.official.results[0]?.count ?? '?'})`,
          unit: 'bytes',
          better: 'lower',
          ours: cellOf(listed.ours, (x) => x.perTool),
          official: cellOf(listed.official, (x) => x.perTool),
          goal: { ratioAtMost: 1, text: '≤ 1.0×' },
        }),
        row({
          id: 'W3',
          name: `search 10-result brave_web_search answer, text bytes vs ${official.short}`,
          unit: 'bytes',
          better: 'lower',
          ours: cellOf(sized.ours, (x) => x.bytes),
          official: cellOf(sized.official, (x) => x.bytes),
          goal: { ratioAtMost: 0.5, text: '≤ 0.5×' },
        }),
      );
      answers.push({
        name: `brave_web_search (10 results) vs ${official.short}, first 100 characters`,
        call: `brave_web_search ${JSON.stringify({ query: QUERY, count: 10 })}`,
        ours: preview(ours, 100),
        official: preview(sized.official.results[0]?.text ?? sized.official.error ?? '', 100),
      });
      notes.push(
        `websearch W3 vs ${official.short}: ${dropped} of 10 titles/URLs of the API answer missing from ours`,
      );
    }
  } finally {
    await brave.close();
  }
  return { rows, answers, notes };
}
