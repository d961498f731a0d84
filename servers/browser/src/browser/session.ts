/**
 * The browser of one server process: launched on the first tool call that needs it (so a start is
 * instant and tools/list never launches anything), its tabs, and its end. The policy proxy starts
 * with the first launch and lives until shutdown.
 *
 * Failure handling: a crashed tab is closed and replaced by a fresh one on the next call (the model
 * is told once); a browser that died or was closed with browser_close is relaunched on the next
 * call; shutdown closes the browser within the bootstrap's budget, and Playwright's exit hook kills
 * the browser's process group if that budget runs out — no orphaned Chromium (case ALL-04, BR-05).
 */
import type { Logger } from '@refmcp/shared/server';
import { ToolError } from '@refmcp/shared/server';
import type { BrowserContext, Frame, Page } from 'playwright-core';
import type { Config } from '../config.js';
import { PolicyProxy } from '../policy/proxy.js';
import { browserError, withTimeout } from './errors.js';
import { type Launched, launchBrowser } from './launch.js';
import { type PatchResult, patchPlaywright } from './playwright-patches.js';
import { RefRegistry } from './refs.js';
import { Tab, type TabHooks } from './tab.js';

/** Time allowed for closing the browser at shutdown before the exit hook kills it, ms. */
const CLOSE_BUDGET_MS = 1000;

export class BrowserSession {
  private launching: Promise<Launched> | undefined;
  /** The browser once fully started (what shutdown closes gracefully). */
  private launched: Launched | undefined;
  private proxy: PolicyProxy | undefined;
  private proxyUrl: Promise<string> | undefined;
  private readonly tabList: Tab[] = [];
  private current: Tab | undefined;
  private nextTabId = 1;
  private stopped = false;
  /** Said once in the next tool result: what happened to the browser since the last call. */
  private notices: string[] = [];
  /** Which tab issued each ref, for the running browser (a new one for each launch). */
  private refs = new RefRegistry<Tab>();
  /** Patching Playwright (tried on the first tab; see playwright-patches.ts). */
  private playwrightPatches: Promise<PatchResult> | undefined;

  constructor(
    private readonly config: Config,
    private readonly log?: Logger,
  ) {}

  /** Whether the browser is running (or starting). */
  get running(): boolean {
    return this.launching !== undefined;
  }

  /** The open tabs, in the order they were opened. */
  get tabs(): readonly Tab[] {
    return this.tabList;
  }

  /** The current tab if the browser runs and one is open (never launches anything). */
  get activeTab(): Tab | undefined {
    return this.current && !this.current.closed ? this.current : undefined;
  }

  /** The tab tools act on; launches the browser and opens a blank tab when needed. */
  async currentTab(): Promise<Tab> {
    const launched = await this.ensure();
    if (this.current && !this.current.closed) return this.current;
    const open = this.tabList.find((t) => !t.closed);
    if (open) {
      this.current = open;
      return open;
    }
    return this.openTab(launched.context);
  }

  /** Opens a new blank tab and makes it current. */
  async newTab(): Promise<Tab> {
    const launched = await this.ensure();
    return this.openTab(launched.context);
  }

  /** Makes tab `index` (0-based, as listed) current. */
  selectTab(index: number): Tab {
    const tab = this.tabList[index];
    if (!tab)
      throw new ToolError(
        `index: no tab ${index}; there are ${this.tabList.length} (0–${this.tabList.length - 1})`,
      );
    this.current = tab;
    return tab;
  }

  /** Closes tab `index` (default: the current one). */
  async closeTab(index?: number): Promise<void> {
    const tab = index === undefined ? this.current : this.tabList[index];
    if (!tab) throw new ToolError(`index: no tab ${index}; there are ${this.tabList.length}`);
    tab.closing = true;
    await tab.page.close().catch(() => {});
    this.forget(tab);
  }

  /** Notices accumulated since the last call (crashes, relaunches), cleared by reading. */
  takeNotices(): string[] {
    const notices = this.notices;
    this.notices = [];
    return notices;
  }

  /** Closes the browser (tool browser_close); the next call that needs it launches a fresh one. */
  async closeBrowser(): Promise<boolean> {
    const launching = this.launching;
    if (!launching) return false;
    this.launching = undefined;
    this.launched = undefined;
    this.reset();
    try {
      await closeLaunched(await launching);
    } catch {
      // it failed to start or died already
    }
    return true;
  }

  /**
   * Shutdown: closes the proxy and, for a persistent profile, the browser gracefully (bounded);
   * never throws. Otherwise — and for a browser still starting — the process exits and Playwright's
   * exit hook kills the browser's process group and removes its temporary profile synchronously.
   */
  async shutdown(): Promise<void> {
    this.stopped = true;
    const launched = this.launched;
    this.launching = undefined;
    this.launched = undefined;
    // A temporary profile needs no graceful close: the exit hook kills the browser and removes the
    // profile in a few ms, where a graceful close can take seconds on a busy machine. A persistent
    // profile (--user-data-dir) is closed gracefully, so cookies and preferences reach the disk.
    if (launched && this.config.userDataDir)
      await withTimeout('browser close', CLOSE_BUDGET_MS, closeLaunched(launched)).catch(() => {});
    await this.proxy?.close().catch(() => {});
  }

  private ensure(): Promise<Launched> {
    if (this.stopped) return Promise.reject(new ToolError('the server is shutting down'));
    this.launching ??= this.launch();
    return this.launching;
  }

  private async launch(): Promise<Launched> {
    const started = Date.now();
    try {
      if (!this.proxyUrl) {
        this.proxy = new PolicyProxy(this.config.policy);
        this.proxyUrl = this.proxy.start();
      }
      const proxyUrl = await this.proxyUrl;
      const launched = await withTimeout(
        'browser launch',
        this.config.timeouts.launch,
        launchBrowser(this.config, proxyUrl),
      );
      if (this.stopped) {
        await closeLaunched(launched).catch(() => {});
        throw new ToolError('the server is shutting down');
      }
      this.watch(launched);
      this.launched = launched;
      this.log?.info(
        `browser launched in ${Date.now() - started} ms (${this.config.browser.executablePath})`,
      );
      return launched;
    } catch (error) {
      this.launching = undefined;
      throw browserError(
        `Launching ${this.config.browser.executablePath}`,
        error,
        this.config.timeouts.launch,
      );
    }
  }

  private watch(launched: Launched): void {
    const { context, browser } = launched;
    context.on('page', (page) => this.register(page));
    for (const page of context.pages()) this.register(page);
    const lost = () => {
      if (this.stopped || this.launching === undefined) return;
      this.launching = undefined;
      this.launched = undefined;
      this.reset();
      this.notices.push('The browser exited unexpectedly; a new one was started with a blank tab.');
    };
    if (browser) browser.on('disconnected', lost);
    else context.on('close', lost);
  }

  private async openTab(context: BrowserContext): Promise<Tab> {
    let page: Page;
    try {
      page = await context.newPage();
    } catch (error) {
      throw browserError('Opening a tab', error);
    }
    const tab = this.register(page);
    this.current = tab;
    return tab;
  }

  private register(page: Page): Tab {
    const known = this.tabList.find((t) => t.page === page);
    if (known) return known;
    const hooks: TabHooks = {
      schemes: this.config.policy.schemes,
      refusedRule: (url) => this.config.policy.refusalFor(url)?.rule,
      onCrash: (tab) => {
        this.notices.push(
          `Tab ${this.tabList.indexOf(tab)} crashed (its renderer process died) and was closed.`,
        );
        this.forget(tab);
        void tab.page.close().catch(() => {});
      },
      onClose: (tab) => {
        const index = this.tabList.indexOf(tab);
        const wasCurrent = this.current === tab;
        this.forget(tab);
        if (!tab.closing && wasCurrent && index >= 0)
          this.notices.push(
            `Tab ${index}, the current one, was closed by its page; the current tab is now ${this.current ? this.tabList.indexOf(this.current) : 'none (a blank one opens on the next call)'}.`,
          );
      },
      onForbiddenFrame: (tab, frame, scheme) => this.blankForbiddenFrame(tab, frame, scheme),
      refs: this.refs,
    };
    const tab = new Tab(this.nextTabId++, page, hooks);
    this.playwrightPatches ??= patchPlaywright(page).then((result) => {
      if (result === 'no-context') this.playwrightPatches = undefined; // the next tab tries again
      if (result === 'unsupported')
        this.log?.warn(
          'could not patch playwright-core (its internals differ from the pinned version; see playwright-patches.ts): each new document compiles its injected script again, and refs are numbered per tab as in stock Playwright',
        );
      return result;
    });
    page.setDefaultTimeout(this.config.timeouts.action);
    page.setDefaultNavigationTimeout(this.config.timeouts.navigation);
    this.tabList.push(tab);
    this.current ??= tab;
    return tab;
  }

  /** A frame that reached file:, chrome: or another refused scheme is sent to about:blank. */
  private blankForbiddenFrame(tab: Tab, frame: Frame, scheme: string): void {
    const message = `Refused by the network policy (rule: scheme): a frame navigated to a "${scheme}:" URL and was blanked.`;
    this.config.policy.recordRefusal(frame.url(), 'scheme', message);
    this.notices.push(message);
    void frame.goto('about:blank').catch(() => {});
    void tab;
  }

  private forget(tab: Tab): void {
    tab.closed = true;
    const index = this.tabList.indexOf(tab);
    if (index >= 0) this.tabList.splice(index, 1);
    if (this.current === tab) this.current = this.tabList[Math.min(index, this.tabList.length - 1)];
  }

  private reset(): void {
    this.refs = new RefRegistry<Tab>();
    for (const tab of this.tabList) tab.closed = true;
    this.tabList.length = 0;
    this.current = undefined;
  }
}

async function closeLaunched(launched: Launched): Promise<void> {
  if (launched.browser) await launched.browser.close();
  else await launched.context.close();
}
