/**
 * The browser suite (`--only browser`): our browser server and @playwright/mcp on the same Debian
 * Chromium, the same pages (served by the bench on 127.0.0.1) and the same calls, alternated.
 *   B1 cold start: spawn → tools/list answered — goal ≤ 0.6×
 *   B2 navigate + snapshot of the same local page (browser already running, warmed up) — goal ≤ 0.8×
 *   B3 snapshot size of a large page, with every actionable ref kept — goal ≤ 0.5× bytes
 *   B4 peak RSS of the server process (and of the server with its browser processes) — reported
 * Our server gets --max-snapshot-bytes high enough that B3 compares whole snapshots, not our cut.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { now, peakRssBytes, quantile } from '../measure.js';
import { type Cell, row } from '../report.js';
import {
  BENCH_DIR,
  reportedVersions,
  resultText,
  type ServerUnderTest,
  Session,
  type Side,
} from '../servers.js';
import { type Context, callOk, type WorkloadResult } from '../workloads/common.js';
import { servePages } from './pages.js';

/** Roles a model acts on (as in servers/browser/src/snapshot/compact.ts). */
const ACTIONABLE =
  /^\s*- (link|button|textbox|searchbox|checkbox|radio|combobox|listbox|option|menuitem|tab|switch|slider|spinbutton)\b/;

function chromiumPath(): string | undefined {
  if (process.env.MCP_BROWSER_EXECUTABLE) return process.env.MCP_BROWSER_EXECUTABLE;
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    for (const name of ['chromium', 'chromium-browser', 'google-chrome']) {
      if (existsSync(join(dir, name))) return join(dir, name);
    }
  }
  return undefined;
}

function servers(): Record<Side, ServerUnderTest> {
  const oursBin = resolve(BENCH_DIR, '../servers/browser/dist/index.js');
  const ours: ServerUnderTest = {
    side: 'ours',
    label: '@refmcp/server-browser (built)',
    bin: oursBin,
    missing: existsSync(oursBin) ? undefined : `not built (${oursBin} is missing)`,
  };
  let official: ServerUnderTest;
  try {
    const pkg = createRequire(join(BENCH_DIR, 'package.json')).resolve('@playwright/mcp/package.json');
    const version = (JSON.parse(readFileSync(pkg, 'utf8')) as { version: string }).version;
    official = { side: 'official', label: `@playwright/mcp ${version}`, bin: join(dirname(pkg), 'cli.js') };
  } catch (error) {
    official = {
      side: 'official',
      label: '@playwright/mcp',
      bin: '',
      missing: `not installed: ${String(error)}`,
    };
  }
  return { ours, official };
}

/** Actionable refs of a snapshot text. */
function actionableRefs(text: string): Set<string> {
  const refs = new Set<string>();
  for (const raw of text.split('\n')) {
    // Our folded lines ("- cell > link …") describe their last element.
    const parts = raw.split(' > ');
    const line = parts.length > 1 ? `- ${parts[parts.length - 1]}` : raw;
    const ref = /\[ref=([^\]]+)\]/.exec(line)?.[1];
    if (ref && (ACTIONABLE.test(line) || line.includes('[cursor=pointer]'))) refs.add(ref);
  }
  return refs;
}

/** The snapshot text of a result: inline, or read from the file a server linked it to. */
function snapshotText(text: string, outputDir: string): string {
  const linked = /\[Snapshot\]\(([^)]+\.yml)\)/.exec(text)?.[1];
  if (!linked) return text;
  const candidates = [
    linked,
    join(outputDir, linked),
    join(outputDir, linked.replace(/^\.playwright-mcp\//, '')),
  ];
  const file = candidates.find((f) => existsSync(f));
  return file ? `${text}\n${readFileSync(file, 'utf8')}` : text;
}

async function descendants(pid: number): Promise<number[]> {
  let children: number[] = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
  const out = [...children];
  for (const child of children) out.push(...(await descendants(child)));
  return out;
}

const cellOf = (values: (number | undefined)[], error?: string): Cell => {
  const v = values.filter((x): x is number => x !== undefined && Number.isFinite(x));
  if (v.length) return { value: quantile(v, 0.5) };
  return error ? { error } : {};
};

export async function runBrowserSuite(ctx: Context): Promise<WorkloadResult> {
  const reported = { ...reportedVersions };
  try {
    return await browserSuite(ctx);
  } finally {
    // The report header names the filesystem servers; our sessions must not claim their slots.
    for (const side of ['ours', 'official'] as const) {
      if (reported[side] === undefined) delete reportedVersions[side];
    }
  }
}

async function browserSuite(ctx: Context): Promise<WorkloadResult> {
  const chromium = chromiumPath();
  if (!chromium)
    throw new Error('no chromium on the PATH (apt-get install chromium) and no MCP_BROWSER_EXECUTABLE');
  const sides = servers();
  const pages = await servePages();
  const outputDir = mkdtempSync(join(tmpdir(), 'refmcp-bench-browser-'));
  const args: Record<Side, string[]> = {
    ours: [
      '--executable-path',
      chromium,
      '--allowed-origins',
      pages.origin,
      '--max-snapshot-bytes',
      '100000000',
    ],
    official: [
      '--headless',
      '--executable-path',
      chromium,
      '--no-sandbox',
      '--isolated',
      '--output-dir',
      outputDir,
    ],
  };
  const timeout = Math.min(ctx.sizes.callTimeoutMs, 120_000);
  const quick = ctx.sizes.coldStarts < 10;
  const notes: string[] = [`both on ${chromium}; pages served on ${pages.origin}`];
  const errors: Partial<Record<Side, string>> = {};
  for (const side of ['ours', 'official'] as const)
    if (sides[side].missing) errors[side] = sides[side].missing;
  const live = (side: Side) => !errors[side];
  const fail = (side: Side, what: string, error: unknown) => {
    errors[side] ??= `${what}: ${error instanceof Error ? error.message : String(error)}`;
    ctx.log(`browser ${side}: ${errors[side]}`);
  };

  try {
    // B1: cold start, one untimed start each, then alternated.
    const cold: Record<Side, number[]> = { ours: [], official: [] };
    const starts = quick ? 3 : 10;
    for (let rep = -1; rep < starts; rep++) {
      for (const side of ['ours', 'official'] as const) {
        if (!live(side)) continue;
        ctx.log(`browser cold start: ${side} ${rep + 1}/${starts}`);
        try {
          const session = await Session.start(sides[side], args[side], timeout);
          if (rep >= 0) cold[side].push(session.readyMs);
          await session.close();
        } catch (error) {
          fail(side, 'cold start', error);
        }
      }
    }

    // B2–B4 on one long-lived session per side.
    const sessions: Partial<Record<Side, Session>> = {};
    for (const side of ['ours', 'official'] as const) {
      if (!live(side)) continue;
      try {
        sessions[side] = await Session.start(sides[side], args[side], timeout);
        await callOk(sessions[side], 'browser_navigate', { url: `${pages.origin}/medium` }, timeout); // launches the browser
      } catch (error) {
        fail(side, 'first navigation', error);
      }
    }
    // B2: untimed warm-up rounds first (a just-launched Chromium keeps working in the background for
    // a few seconds, and the other side's launch lands in the first rounds), then timed rounds with
    // the order of the two sides alternating.
    const navSnap: Record<Side, number[]> = { ours: [], official: [] };
    const reps = quick ? 3 : 10;
    const warmUp = 3;
    for (let rep = -warmUp; rep < reps; rep++) {
      const order = rep % 2 === 0 ? (['ours', 'official'] as const) : (['official', 'ours'] as const);
      for (const side of order) {
        const session = sessions[side];
        if (!session || !live(side)) continue;
        ctx.log(`browser navigate + snapshot: ${side} ${rep < 0 ? 'warm-up' : `${rep + 1}/${reps}`}`);
        try {
          const t0 = now();
          await callOk(session, 'browser_navigate', { url: `${pages.origin}/medium?rep=${rep}` }, timeout);
          await callOk(session, 'browser_snapshot', {}, timeout);
          if (rep >= 0) navSnap[side].push(now() - t0);
        } catch (error) {
          fail(side, 'navigate + snapshot', error);
        }
      }
    }
    const size: Partial<Record<Side, { bytes: number; refs: Set<string> }>> = {};
    for (const side of ['ours', 'official'] as const) {
      const session = sessions[side];
      if (!session || !live(side)) continue;
      ctx.log(`browser large-page snapshot: ${side}`);
      try {
        await callOk(session, 'browser_navigate', { url: `${pages.origin}/large` }, timeout);
        const text = snapshotText(
          resultText(await callOk(session, 'browser_snapshot', {}, timeout)),
          outputDir,
        );
        size[side] = { bytes: Buffer.byteLength(text), refs: actionableRefs(text) };
      } catch (error) {
        fail(side, 'large snapshot', error);
      }
    }
    const rss: Record<Side, { server?: number; tree?: number }> = { ours: {}, official: {} };
    for (const side of ['ours', 'official'] as const) {
      const pid = sessions[side]?.pid;
      if (!pid) continue;
      const server = await peakRssBytes(pid);
      let tree = server ?? 0;
      for (const child of await descendants(pid)) tree += (await peakRssBytes(child)) ?? 0;
      rss[side] = { server, tree };
    }
    for (const session of Object.values(sessions)) await session?.close();

    const oursRefs = size.ours?.refs;
    const theirRefs = size.official?.refs;
    const missing = oursRefs && theirRefs ? [...theirRefs].filter((r) => !oursRefs.has(r)) : undefined;
    if (size.ours && size.official)
      notes.push(
        `large page: ours ${size.ours.bytes} bytes with ${size.ours.refs.size} actionable refs, official ${size.official.bytes} bytes with ${size.official.refs.size}; ` +
          `actionable refs of the official snapshot missing from ours: ${missing?.length ? missing.slice(0, 10).join(', ') : 'none'}`,
      );
    notes.push(
      `navigate + snapshot runs (ms): ${(['ours', 'official'] as const).map((s) => `${s} ${navSnap[s].map((v) => v.toFixed(0)).join('/')}`).join('; ')}`,
    );
    for (const side of ['ours', 'official'] as const)
      if (errors[side]) notes.push(`browser ${side}: ${errors[side]}`);

    return {
      rows: [
        row({
          id: 'B1',
          name: `browser: cold start → tools/list answered (${starts} starts)`,
          unit: 'ms',
          better: 'lower',
          ours: cellOf(cold.ours, errors.ours),
          official: cellOf(cold.official, errors.official),
          goal: { ratioAtMost: 0.6, text: '≤ 0.6×' },
        }),
        row({
          id: 'B2',
          name: `browser: navigate + snapshot, local page (${reps} runs after ${warmUp} warm-up, browser warm)`,
          unit: 'ms',
          better: 'lower',
          ours: cellOf(navSnap.ours, errors.ours),
          official: cellOf(navSnap.official, errors.official),
          goal: { ratioAtMost: 0.8, text: '≤ 0.8×' },
        }),
        row({
          id: 'B3',
          name: 'browser: snapshot size of a large page',
          unit: 'bytes',
          better: 'lower',
          ours: size.ours ? { value: size.ours.bytes } : { error: errors.ours ?? 'no result' },
          official: size.official
            ? { value: size.official.bytes }
            : { error: errors.official ?? 'no result' },
          goal: {
            ratioAtMost: 0.5,
            text: '≤ 0.5×, every actionable ref kept',
            alsoRequired: {
              text: 'no actionable ref of the official snapshot missing',
              met: missing ? missing.length === 0 : undefined,
            },
          },
        }),
        row({
          id: 'B4',
          name: 'browser: peak RSS of the server process',
          unit: 'bytes',
          better: 'lower',
          ours: { value: rss.ours.server },
          official: { value: rss.official.server },
        }),
        row({
          id: 'B4b',
          name: 'browser: peak RSS, server + browser processes (sum of each peak)',
          unit: 'bytes',
          better: 'lower',
          ours: { value: rss.ours.tree },
          official: { value: rss.official.tree },
        }),
      ],
      notes,
    };
  } finally {
    await pages.close();
    rmSync(outputDir, { recursive: true, force: true });
  }
}
