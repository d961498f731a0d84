/**
 * What the browser tools share: the session and config, the tab guard (a pending dialog blocks the
 * page, so only browser_handle_dialog may proceed), and the common result of an action — what
 * happened, where the page is now, what the network policy refused meanwhile, and the snapshot as
 * a diff, in full, or not at all.
 */
import { z } from '@refmcp/shared/schema';
import { ToolError, type ToolResult, textResult } from '@refmcp/shared/server';
import type { CDPSession } from 'playwright-core';
import type { DownloadReport } from '../browser/downloads.js';
import type { BrowserSession } from '../browser/session.js';
import type { Tab } from '../browser/tab.js';
import type { Config } from '../config.js';
import type { ResourceStore } from '../resources.js';
import { untrustedText } from '../sanitize.js';
import { budgetLines, type SnapshotLimits, takeSnapshot } from '../snapshot/capture.js';
import { diffSnapshots, renderDiff } from '../snapshot/diff.js';

export interface Ctx {
  config: Config;
  session: BrowserSession;
  resources: ResourceStore;
}

export type SnapshotMode = 'diff' | 'full' | 'none';

/** The `snapshot` argument every action takes. */
export const snapshotArg = () =>
  z
    .enum(['diff', 'full', 'none'])
    .optional()
    .describe('Snapshot returned: diff (changed lines; default), full or none');

/** The current tab, refusing when a dialog is open (unless `allowDialog`). */
export async function activeTab(ctx: Ctx, allowDialog = false): Promise<Tab> {
  const tab = await ctx.session.currentTab();
  if (tab.dialog && !allowDialog)
    throw new ToolError(
      `A ${tab.dialog.type()} dialog is open ("${untrustedText(tab.dialog.message().slice(0, 200))}"); the page is blocked until it is handled: call browser_handle_dialog first.`,
    );
  return tab;
}

/** Resolves to `value` after `ms`. */
const after = <T>(ms: number, value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

/** Each tab's CDP session for {@link browserTitle}, opened on first use; it ends with the page. */
const titleSessions = new WeakMap<Tab, Promise<CDPSession>>();

/**
 * The title Chromium's browser process holds for the tab's current history entry (CDP
 * `Page.getNavigationHistory`, answered without the page's main thread), '' when there is none or
 * the entry is not the page's URL. The renderer sends a title to the browser as soon as it parses
 * it, so a page too busy to answer `document.title` (a 200k-element page laying out) still has it.
 */
async function browserTitle(tab: Tab): Promise<string> {
  let opened = titleSessions.get(tab);
  if (!opened) {
    opened = tab.page.context().newCDPSession(tab.page);
    opened.catch(() => titleSessions.delete(tab));
    titleSessions.set(tab, opened);
  }
  const history = await (await opened).send('Page.getNavigationHistory');
  const entry = history.entries[history.currentIndex];
  return entry && entry.url === tab.page.url() ? entry.title : '';
}

/** How long a page line waits for a title at most (ms): the page's answer or the browser's copy. */
const TITLE_BUDGET_MS = 5000;

/**
 * "Page: <url> — "<title>"" (title sanitised; `knownTitle` saves a round trip; none while a dialog
 * blocks). The title is `document.title`, or, when the page has not answered within a second (busy
 * or hung), whichever comes first of that answer and the browser's own copy ({@link browserTitle});
 * '' after {@link TITLE_BUDGET_MS}. The second only starts the browser's read, it does not end the
 * page's: a page or a browser slowed by a loaded machine still answers (a one-second cap on each
 * lost the title there).
 */
export async function pageLine(tab: Tab, knownTitle?: string): Promise<string> {
  const url = tab.page.url();
  if (tab.dialog) return `Page: ${url}`;
  const title = knownTitle ?? (await firstTitle(tab));
  return `Page: ${url}${title ? ` — "${untrustedText(title.slice(0, 300))}"` : ''}`;
}

/**
 * The page's `document.title` as soon as it answers; or, when it has not within a second, the
 * browser's copy if that is not empty; '' after {@link TITLE_BUDGET_MS}.
 */
function firstTitle(tab: Tab): Promise<string> {
  return new Promise<string>((resolve) => {
    let answered = false;
    void tab.page
      .title()
      .catch(() => '')
      .then((title) => {
        answered = true;
        resolve(title);
      });
    void after(1000, undefined)
      .then(() => (answered ? '' : browserTitle(tab).catch(() => '')))
      .then((title) => {
        if (title) resolve(title);
      });
    void after(TITLE_BUDGET_MS, '').then(resolve);
  });
}

/**
 * Lines about the page's requests (seq after `requestMark`) that the network policy refused — the
 * page's own, not the browser's background chatter.
 */
export function refusalLines(tab: Tab, requestMark: number): string[] {
  const refused = tab.requests.filter((r) => r.seq > requestMark && r.refused);
  if (!refused.length) return [];
  const shown = refused.slice(0, 5).map((r) => `- ${r.method} ${r.url.slice(0, 200)} (rule: ${r.refused})`);
  if (refused.length > 5) shown.push(`- … and ${refused.length - 5} more (see browser_network_requests)`);
  return [`Requests of the page refused by the network policy (${refused.length}):`, ...shown];
}

/** What {@link untilDialog} resolves with when a dialog opened first. */
export const DIALOG = Symbol('dialog');

/**
 * `work` (a navigation, a snapshot), or {@link DIALOG} as soon as the page opens a dialog (an
 * alert/confirm/prompt during load or onload): a dialog blocks the page, so the work would not settle
 * until its timeout and then report an unrelated error. It goes on in the background (its outcome
 * dropped) and the page continues once the dialog is handled.
 */
export async function untilDialog<T>(tab: Tab, work: Promise<T>): Promise<T | typeof DIALOG> {
  work.catch(() => {});
  let onDialog: (() => void) | undefined;
  const opened = new Promise<typeof DIALOG>((resolve) => {
    onDialog = () => resolve(DIALOG);
    tab.page.once('dialog', onDialog);
  });
  try {
    return await Promise.race([work, opened]);
  } finally {
    if (onDialog) tab.page.off('dialog', onDialog);
  }
}

/**
 * The snapshot part of a result per `mode`; records the full snapshot on the tab for later diffs.
 * A diff is given only when the page did not navigate and the diff is smaller than the snapshot.
 */
export async function snapshotSection(
  ctx: Ctx,
  tab: Tab,
  mode: SnapshotMode,
  navigated: boolean,
): Promise<{ text: string; title?: string }> {
  if (mode === 'none') return { text: '' };
  if (tab.dialog)
    return { text: `A ${tab.dialog.type()} dialog is open; no snapshot until browser_handle_dialog.` };
  const snap = await untilDialog(tab, takeSnapshot(tab, {}, snapshotLimits(ctx)));
  if (snap === DIALOG)
    return {
      text: `A ${(tab.dialog as Tab['dialog'])?.type() ?? ''} dialog opened; no snapshot until browser_handle_dialog.`,
    };
  const full = snap.text;
  const before = tab.lastSnapshot;
  tab.lastSnapshot = snap.outline ? undefined : full;
  if (mode === 'diff' && before !== undefined && !navigated && !snap.outline) {
    const diff = renderDiff(diffSnapshots(before, full));
    if (Buffer.byteLength(diff) < Buffer.byteLength(full)) {
      const cut = budgetLines(
        diff,
        0,
        ctx.config.maxSnapshotBytes,
        () => 'call browser_snapshot for the whole page',
      );
      return { text: `Snapshot changes since the last snapshot:\n${cut.text}`, title: snap.title };
    }
  }
  const cut = budgetLines(
    full,
    0,
    ctx.config.maxSnapshotBytes,
    (next) => `continue with browser_snapshot offset=${next}, or snapshot a region with target=<ref>`,
  );
  return { text: `Snapshot:\n${cut.text}`, title: snap.title };
}

/** The snapshot limits from the config. */
export function snapshotLimits(ctx: Ctx): SnapshotLimits {
  return { timeoutMs: ctx.config.timeouts.snapshot, maxElements: ctx.config.maxSnapshotElements };
}

/** Assembles an action's result: headline, page line, notices, refusals, snapshot. */
export async function actionResult(
  ctx: Ctx,
  tab: Tab,
  headline: string,
  opts: { mode: SnapshotMode; requestMark: number; urlBefore: string },
): Promise<ToolResult> {
  const navigated = tab.page.url() !== opts.urlBefore;
  const snapshot = await snapshotSection(ctx, tab, opts.mode, navigated);
  const parts = [headline, await pageLine(tab, snapshot.title)];
  if (tab.dialog)
    parts.push(
      `A ${tab.dialog.type()} dialog opened: "${untrustedText(tab.dialog.message().slice(0, 500))}". Handle it with browser_handle_dialog.`,
    );
  if (tab.fileChooser) parts.push('A file chooser opened: answer it with browser_file_upload.');
  parts.push(...ctx.session.takeNotices(), ...refusalLines(tab, opts.requestMark));
  const downloads = await tab.takeDownloads();
  parts.push(...downloads.map((d) => d.line));
  if (snapshot.text) parts.push(snapshot.text);
  return withDownloadLinks(textResult(parts.join('\n')), downloads);
}

/** `result` with a `resource_link` block for each saved download (its `download://` resource). */
export function withDownloadLinks(result: ToolResult, downloads: DownloadReport[]): ToolResult {
  for (const { resource } of downloads)
    if (resource)
      result.content.push({
        type: 'resource_link',
        uri: resource.uri,
        name: resource.name,
        mimeType: resource.mimeType,
        size: resource.size,
      });
  return result;
}

/**
 * Runs `act` on the current tab and returns {@link actionResult}; waits for a navigation the action
 * started to reach DOMContentLoaded (within the navigation budget) before describing the page.
 */
export async function runAction(
  ctx: Ctx,
  mode: SnapshotMode | undefined,
  act: (tab: Tab) => Promise<string>,
): Promise<ToolResult> {
  const tab = await activeTab(ctx);
  const requestMark = tab.lastRequestSeq;
  const urlBefore = tab.page.url();
  let navigationStarted = false;
  const onNavigate = (frame: { parentFrame(): unknown }) => {
    if (!frame.parentFrame()) navigationStarted = true;
  };
  tab.page.on('framenavigated', onNavigate);
  // A dialog blocks the page: the action that opened it never completes until it is handled, so the
  // action races the dialog and the result reports the dialog (the action finishes in the background).
  let onDialog: (() => void) | undefined;
  const dialogOpened = new Promise<string>((resolve) => {
    onDialog = () => resolve('The action opened a dialog.');
    tab.page.once('dialog', onDialog);
  });
  let headline: string;
  try {
    const action = act(tab);
    action.catch(() => {});
    headline = await Promise.race([action, dialogOpened]);
    // Give a click that submits a form or follows a link a moment to start navigating.
    if (!tab.dialog) await new Promise((resolve) => setTimeout(resolve, 50));
  } finally {
    tab.page.off('framenavigated', onNavigate);
    if (onDialog) tab.page.off('dialog', onDialog);
  }
  if (navigationStarted && !tab.dialog && !tab.closed)
    await tab.page
      .waitForLoadState('domcontentloaded', { timeout: ctx.config.timeouts.navigation })
      .catch(() => {});
  if (tab.closed) {
    const downloads = await tab.takeDownloads();
    return withDownloadLinks(
      textResult([headline, 'The tab closed.', ...downloads.map((d) => d.line)].join('\n')),
      downloads,
    );
  }
  return actionResult(ctx, tab, headline, { mode: mode ?? 'diff', requestMark, urlBefore });
}
