/**
 * The one Chromium of a server process and the policy proxy in front of it, shared by every client
 * session. Each session (one server instance: the stdio client, or one HTTP session) holds a
 * context of its own — its own tabs, cookies, storage and cache — opened here on its first tool
 * call that needs a page; a session never sees another's.
 *
 * - Launch: on the first context asked for; the proxy starts with the first launch and lives until
 *   shutdown. The browser closes when the last session releases its context (browser_close, a
 *   session ended), and the next one launches a fresh browser.
 * - Bounds: at most {@link MAX_BROWSER_CONTEXTS} sessions hold a context at once (the HTTP bootstrap
 *   admits 128 sessions; a context with its tabs' renderers costs tens of MB, so fewer are kept).
 *   With --user-data-dir the browser has exactly one (persistent) context: one session at a time.
 * - Loss: a browser that died is forgotten; every session holding a context is told (its `onLost`)
 *   and the next call relaunches.
 * - Shutdown: for a persistent profile the browser is closed gracefully (bounded), so cookies reach
 *   the disk; otherwise the process exits and Playwright's exit hook kills the browser's process
 *   group and removes its temporary profile (case ALL-04, BR-05).
 */
import type { Logger } from '@refmcp/shared/server';
import { ToolError } from '@refmcp/shared/server';
import type { BrowserContext } from 'playwright-core';
import type { Config } from '../config.js';
import { PolicyProxy } from '../policy/proxy.js';
import { browserError, withTimeout } from './errors.js';
import { type Launched, launchBrowser, openContext } from './launch.js';

/** Sessions holding a browser context at once; one more is refused with a ToolError saying why. */
export const MAX_BROWSER_CONTEXTS = 16;
/** Time allowed for closing a context or the browser before giving up on it, ms. */
const CLOSE_BUDGET_MS = 1000;

export class BrowserHost {
  private launching: Promise<Launched> | undefined;
  /** The browser once fully started. */
  private launched: Launched | undefined;
  private proxy: PolicyProxy | undefined;
  private proxyUrl: Promise<string> | undefined;
  private stopped = false;
  /** The sessions holding a context (or about to), each with what to call if the browser dies. */
  private readonly holders = new Map<object, () => void>();

  constructor(
    private readonly config: Config,
    private readonly log?: Logger,
  ) {}

  /** True once shutdown began: nothing opens any more. */
  get stopping(): boolean {
    return this.stopped;
  }

  /** Sessions holding a context now. */
  get contexts(): number {
    return this.holders.size;
  }

  /**
   * A context of `holder`'s own, launching the browser when needed; `onLost` is called once if the
   * browser dies while `holder` holds it. Errors (ToolError): shutting down; {@link MAX_BROWSER_CONTEXTS}
   * held already; the persistent profile held by another session; the launch failed or timed out.
   */
  async open(holder: object, onLost: () => void): Promise<BrowserContext> {
    if (this.stopped) throw new ToolError('the server is shutting down');
    if (this.config.userDataDir && this.holders.size && !this.holders.has(holder))
      throw new ToolError(
        'The browser profile (--user-data-dir) is in use by another client session: a persistent profile serves one session at a time. Try again once that session ends, or ask the operator to run the server without --user-data-dir (then each session gets a context of its own).',
      );
    if (this.holders.size >= MAX_BROWSER_CONTEXTS && !this.holders.has(holder))
      throw new ToolError(
        `${MAX_BROWSER_CONTEXTS} client sessions hold a browser context already (the most this server keeps open). Try again once one ends (a session ends with DELETE, browser_close, or once idle longer than the operator's MCP_HTTP_SESSION_IDLE_MS, default 30 minutes).`,
      );
    this.holders.set(holder, onLost);
    try {
      const launched = await this.ensure();
      if (launched.persistent) return launched.persistent;
      const context = await withTimeout(
        'opening a browser context',
        this.config.timeouts.launch,
        openContext(launched.browser as NonNullable<Launched['browser']>, this.config),
      );
      if (!this.holders.has(holder)) {
        // The browser died or the session ended meanwhile.
        await context.close().catch(() => {});
        throw new ToolError('the browser closed while opening a context; call the tool again');
      }
      return context;
    } catch (error) {
      await this.release(holder);
      throw browserError('Opening a browser context', error, this.config.timeouts.launch);
    }
  }

  /**
   * `holder` is done with its context: closes it (bounded; never throws), and the browser once no
   * session holds a context. A no-op for a holder without one, and during shutdown (the exit hook
   * kills the browser faster than a graceful close).
   */
  async release(holder: object, context?: BrowserContext): Promise<void> {
    if (!this.holders.delete(holder) || this.stopped) return;
    if (this.holders.size === 0) return this.closeBrowser();
    if (context && context !== this.launched?.persistent)
      await withTimeout('context close', CLOSE_BUDGET_MS, context.close()).catch(() => {});
  }

  /** Shutdown: closes the proxy and, for a persistent profile, the browser gracefully (bounded); never throws. */
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

  private async closeBrowser(): Promise<void> {
    const launching = this.launching;
    this.launching = undefined;
    this.launched = undefined;
    if (!launching) return;
    try {
      await withTimeout('browser close', CLOSE_BUDGET_MS, closeLaunched(await launching));
    } catch {
      // it failed to start, died already, or took too long (the exit hook still kills it)
    }
  }

  private ensure(): Promise<Launched> {
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

  /** One listener per browser (not per session): a dead browser is forgotten and its holders told. */
  private watch(launched: Launched): void {
    const lost = () => {
      if (this.stopped || this.launched !== launched) return;
      this.launching = undefined;
      this.launched = undefined;
      const told = [...this.holders.values()];
      this.holders.clear();
      for (const onLost of told) onLost();
    };
    if (launched.browser) launched.browser.on('disconnected', lost);
    else launched.persistent?.on('close', lost);
  }
}

async function closeLaunched(launched: Launched): Promise<void> {
  if (launched.browser) await launched.browser.close();
  else await launched.persistent?.close();
}
