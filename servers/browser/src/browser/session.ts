/**
 * The browser of one client session (one server instance: the stdio client, or one HTTP session):
 * its own context (tabs, cookies, storage) in the process's shared Chromium (host.ts), opened on the
 * first tool call that needs a page (so a start is instant and tools/list never launches anything),
 * its tabs, and its end.
 *
 * Failure handling: a crashed tab is closed and replaced by a fresh one on the next call (the model
 * is told once); a browser that died, or a context closed with browser_close, is opened again on the
 * next call; closing the session closes its context (and the browser when no other session holds
 * one) — no orphaned Chromium (case ALL-04, BR-05).
 */
import type { Logger } from '@refmcp/shared/server';
import { ToolError } from '@refmcp/shared/server';
import type { BrowserContext, Download, Frame, Page } from 'playwright-core';
import type { Config } from '../config.js';
import type { DownloadHints, DownloadReport } from './downloads.js';
import { browserError } from './errors.js';
import type { BrowserHost } from './host.js';
import { type PatchResult, patchPlaywright } from './playwright-patches.js';
import { RefRegistry } from './refs.js';
import { Tab, type TabHooks } from './tab.js';

export class BrowserSession {
  /** This session's context once asked for (undefined: none, or closed). */
  private launching: Promise<BrowserContext> | undefined;
  private readonly tabList: Tab[] = [];
  private current: Tab | undefined;
  private nextTabId = 1;
  /** Set when the session ended: no context opens any more. */
  private ended = false;
  /** Said once in the next tool result: what happened to the browser since the last call. */
  private notices: string[] = [];
  /** Which tab issued each ref, for the current context (a new one for each). */
  private refs = new RefRegistry<Tab>();
  /** Settles the downloads of this session's pages (set by the server: it knows the resource store). */
  downloads: ((download: Download, hints: DownloadHints) => Promise<DownloadReport>) | undefined;
  /** Patching Playwright (tried on the first tab; see playwright-patches.ts). */
  private playwrightPatches: Promise<PatchResult> | undefined;

  constructor(
    private readonly config: Config,
    private readonly host: BrowserHost,
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
    const context = await this.ensure();
    if (this.current && !this.current.closed) return this.current;
    const open = this.tabList.find((t) => !t.closed);
    if (open) {
      this.current = open;
      return open;
    }
    return this.openTab(context);
  }

  /** Opens a new blank tab and makes it current. */
  async newTab(): Promise<Tab> {
    return this.openTab(await this.ensure());
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

  /**
   * Closes this session's browser context and its tabs (tool browser_close; the browser itself when
   * no other session holds one); the next call that needs a page opens a fresh one. False when none
   * was open.
   */
  async closeBrowser(): Promise<boolean> {
    const launching = this.launching;
    if (!launching) return false;
    this.launching = undefined;
    this.reset();
    const context = await launching.catch(() => undefined);
    await this.host.release(this, context);
    return true;
  }

  /** The session ended (its server instance closed): closes its context as browser_close does; never throws. */
  async end(): Promise<void> {
    this.ended = true;
    await this.closeBrowser().catch(() => {});
  }

  private ensure(): Promise<BrowserContext> {
    if (this.ended || this.host.stopping) return Promise.reject(new ToolError('the server is shutting down'));
    this.launching ??= this.open();
    return this.launching;
  }

  private async open(): Promise<BrowserContext> {
    try {
      const context = await this.host.open(this, () => this.lost());
      context.on('page', (page) => this.register(page));
      for (const page of context.pages()) this.register(page);
      return context;
    } catch (error) {
      this.launching = undefined;
      throw error;
    }
  }

  /** The browser died under this session (told by the host). */
  private lost(): void {
    if (this.ended || this.launching === undefined) return;
    this.launching = undefined;
    this.reset();
    this.notices.push('The browser exited unexpectedly; a new one was started with a blank tab.');
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
      onDownload: async (download, hints) => {
        if (this.downloads) return this.downloads(download, hints);
        await download.cancel().catch(() => {});
        return { line: `Download started: ${download.suggestedFilename()} — cancelled.` };
      },
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
