/**
 * browser_navigate and browser_navigate_back. The URL is checked against the network policy before
 * the browser sees it (so the answer names the rule), and the policy proxy checks every hop the
 * browser then makes; a redirect to a refused address makes the navigation an error too (BR-01/02).
 */
import { safeString, z } from '@refmcp/shared/schema';
import {
  defineTool,
  type Heartbeat,
  OPEN_WORLD_HINTS,
  type Progress,
  startHeartbeat,
  type ToolDefinition,
  ToolError,
} from '@refmcp/shared/server';
import type { Frame, Page, Response } from 'playwright-core';
import { browserError, playwrightMessage } from '../browser/errors.js';
import type { Tab } from '../browser/tab.js';
import {
  actionResult,
  activeTab,
  type Ctx,
  DIALOG,
  type SnapshotMode,
  snapshotArg,
  untilDialog,
} from './context.js';

/** The headline of a navigation a dialog interrupted (actionResult adds the dialog and what to do). */
function dialogHeadline(what: string): string {
  return `${what}: the page opened a dialog while loading; it finishes loading once the dialog is handled (browser_handle_dialog), then take a snapshot.`;
}

/** Every URL of a navigation's redirect chain, first request first. */
function redirectChain(response: Response | null): string[] {
  const chain: string[] = [];
  for (let request = response?.request() ?? null; request; request = request.redirectedFrom())
    chain.unshift(request.url());
  return chain;
}

/**
 * The phases of a navigation as progress (when the call carried a progressToken): a heartbeat naming
 * the phase — waiting for the response, loading the page once the main frame commits, describing it
 * after DOMContentLoaded — with the seconds so far. `stop()` ends it; without `progress`, nothing.
 */
function navigationProgress(
  progress: Progress | undefined,
  page: Page,
): (Heartbeat & { loaded(): void }) | undefined {
  if (!progress) return undefined;
  let phase = 'waiting for the response';
  const beat = startHeartbeat(progress, (s) => `${phase}, ${s} s`);
  const committed = (frame: Frame) => {
    if (frame !== page.mainFrame() || phase !== 'waiting for the response') return;
    phase = 'loading the page';
    beat.now();
  };
  page.on('framenavigated', committed);
  return {
    now: beat.now,
    loaded() {
      page.off('framenavigated', committed);
      phase = 'describing the page';
      beat.now();
    },
    stop() {
      page.off('framenavigated', committed);
      beat.stop();
    },
  };
}

export function navigationTools(ctx: Ctx): ToolDefinition[] {
  const { policy } = ctx.config;
  const navigate = defineTool({
    name: 'browser_navigate',
    title: 'Navigate to a URL',
    description:
      'Open a URL in the current tab; returns its snapshot. ' +
      `Network policy (operator-set): ${policy.describe()}; refusals name the rule.`,
    inputSchema: z.strictObject({
      url: safeString({ max: 8192, min: 1 }).describe('Absolute URL'),
      snapshot: snapshotArg(),
    }),
    annotations: OPEN_WORLD_HINTS.additive,
    handler: async ({ url, snapshot }, { progress }) => {
      const verdict = await policy.checkUrl(url);
      if (!verdict.ok) throw new ToolError(verdict.message);
      const tab = await activeTab(ctx);
      const phases = navigationProgress(progress, tab.page);
      try {
        return await navigateTo(url, snapshot, tab, phases);
      } finally {
        phases?.stop();
      }
    },
  });

  /** browser_navigate after the policy check: goto, then the redirect chain checked, then the page described. */
  async function navigateTo(
    url: string,
    snapshot: SnapshotMode | undefined,
    tab: Tab,
    phases: { loaded(): void } | undefined,
  ) {
    const mark = policy.lastSeq;
    const requestMark = tab.lastRequestSeq;
    const urlBefore = tab.page.url();
    let response: Response | null;
    try {
      const outcome = await untilDialog(
        tab,
        tab.page.goto(url, { waitUntil: 'domcontentloaded', timeout: ctx.config.timeouts.navigation }),
      );
      if (outcome === DIALOG)
        return actionResult(ctx, tab, dialogHeadline(`Navigating to ${url.slice(0, 300)}`), {
          mode: snapshot ?? 'full',
          requestMark,
          urlBefore,
        });
      response = outcome;
    } catch (error) {
      // The URL answered with an attachment: Playwright's "Download is starting". The page stays.
      // Its download event follows the rejection, later on a loaded machine: wait for it within
      // the navigation budget (it must come: the browser said a download is starting). Checked
      // before the policy's refusals: a request the browser made on its own meanwhile (one to
      // accounts.google.com was refused during a download in a clean-clone run) is not this
      // navigation's failure.
      if (
        /Download is starting/i.test(playwrightMessage(error)) &&
        (await tab.downloadStarted(ctx.config.timeouts.navigation))
      )
        return actionResult(
          ctx,
          tab,
          `Navigating to ${url.slice(0, 300)} started a download; the page did not change.`,
          {
            mode: snapshot ?? 'full',
            requestMark,
            urlBefore,
          },
        );
      const refused = policy.refusalsAfter(mark)[0];
      if (refused) throw new ToolError(refused.message);
      throw browserError(`Navigating to ${url.slice(0, 300)}`, error, ctx.config.timeouts.navigation);
    }
    const chain = redirectChain(response);
    for (const [hop, hopUrl] of chain.entries()) {
      const refusal = policy
        .refusalsAfter(mark)
        .find((r) => r.target === hopUrl || hopUrl.startsWith(`${r.target}/`));
      if (refusal)
        throw new ToolError(
          `${refusal.message} (${hop === 0 ? 'requested URL' : `redirect hop ${hop}: ${hopUrl.slice(0, 300)}`})`,
        );
    }
    const status = response ? `HTTP ${response.status()}` : 'no HTTP response';
    const via = chain.length > 1 ? ` after ${chain.length - 1} redirect(s)` : '';
    phases?.loaded();
    return actionResult(ctx, tab, `Navigated to ${url.slice(0, 300)} (${status}${via}).`, {
      mode: snapshot ?? 'full',
      requestMark,
      urlBefore,
    });
  }

  const back = defineTool({
    name: 'browser_navigate_back',
    title: 'Go back',
    description: "Go back in the current tab's history; returns the page's snapshot.",
    inputSchema: z.strictObject({ snapshot: snapshotArg() }),
    annotations: OPEN_WORLD_HINTS.additive,
    handler: async ({ snapshot }) => {
      const tab = await activeTab(ctx);
      const requestMark = tab.lastRequestSeq;
      const urlBefore = tab.page.url();
      let response: Response | null;
      try {
        const outcome = await untilDialog(
          tab,
          tab.page.goBack({ waitUntil: 'domcontentloaded', timeout: ctx.config.timeouts.navigation }),
        );
        if (outcome === DIALOG)
          return actionResult(ctx, tab, dialogHeadline('Going back'), {
            mode: snapshot ?? 'full',
            requestMark,
            urlBefore,
          });
        response = outcome;
      } catch (error) {
        throw browserError('Going back', error, ctx.config.timeouts.navigation);
      }
      const headline =
        response || tab.page.url() !== urlBefore ? 'Went back.' : 'There is no previous page in this tab.';
      return actionResult(ctx, tab, headline, { mode: snapshot ?? 'full', requestMark, urlBefore });
    },
  });
  return [navigate, back];
}
