/**
 * One browser tab and what the tools need to know about it: console messages and network requests
 * since it opened (bounded ring buffers), a pending dialog or file chooser (modal state the model
 * must deal with first), whether its renderer crashed, and the last snapshot (for action diffs).
 */
import type { Dialog, Download, FileChooser, Frame, Page, Request } from 'playwright-core';
import type { DownloadHints, DownloadReport } from './downloads.js';
import type { RefRegistry } from './refs.js';

export type ConsoleLevel = 'error' | 'warning' | 'info' | 'debug';

export interface ConsoleEntry {
  seq: number;
  /** Epoch milliseconds. */
  time: number;
  level: ConsoleLevel;
  text: string;
  /** "url:line:column" of the call, when known. */
  location?: string;
}

export interface RequestEntry {
  seq: number;
  method: string;
  url: string;
  resourceType: string;
  status?: number;
  failure?: string;
  /** The network-policy rule that refused it, when it was refused. */
  refused?: string;
}

/** Most console messages / requests kept per tab (oldest dropped first). */
export const MAX_LOG_ENTRIES = 2000;

const LEVELS: Record<string, ConsoleLevel> = {
  error: 'error',
  assert: 'error',
  warning: 'warning',
  debug: 'debug',
  trace: 'debug',
};

/** Schemes a frame may show besides the allowed ones (blank and srcdoc frames, inline data). */
const LOCAL_FRAME_SCHEMES = new Set(['about', 'data', 'blob', 'javascript']);

export interface TabHooks {
  /** Called when the renderer of the tab crashed. */
  onCrash(tab: Tab): void;
  /** Called when the tab closed (by the page itself, a tool or the browser). */
  onClose(tab: Tab): void;
  /** The policy rule that refused `url` recently, if any. */
  refusedRule(url: string): string | undefined;
  /** A frame reached a scheme the policy does not allow (e.g. file: in an iframe). */
  onForbiddenFrame(tab: Tab, frame: Frame, scheme: string): void;
  /** Schemes the policy allows. */
  schemes: readonly string[];
  /** The browser's registry of which tab issued each snapshot ref. */
  refs: RefRegistry<Tab>;
  /** Settles a download the page started (downloads.ts), and says what happened to it. */
  onDownload(download: Download, hints: DownloadHints): Promise<DownloadReport>;
}

/** Navigation responses remembered for the downloads they may turn into (type, size). */
const MAX_HINTS = 16;

export class Tab {
  readonly console: ConsoleEntry[] = [];
  readonly requests: RequestEntry[] = [];
  /** Entries dropped from the front of each buffer so far (sequence numbers keep counting). */
  droppedConsole = 0;
  droppedRequests = 0;
  dialog: Dialog | undefined;
  fileChooser: FileChooser | undefined;
  crashed = false;
  closed = false;
  /** Set when a tool closes the tab (so its closing is not reported as the page's doing). */
  closing = false;
  /** The compact snapshot last shown to the model, for diffs. */
  lastSnapshot: string | undefined;
  /**
   * The document (page-facts `document`) in which a snapshot waited out an iframe that never shows
   * a document (a chat widget, long polling): later snapshots of it do not wait for it again.
   */
  stuckFrameDocument: number | undefined;
  private consoleSeq = 0;
  private requestSeq = 0;
  /** Downloads started and not yet reported in a tool result. */
  private pendingDownloads: Promise<DownloadReport>[] = [];
  private readonly downloadHints = new Map<string, DownloadHints>();
  private downloadWaiters: (() => void)[] = [];

  /** The reports of the downloads started since the last call (each settled; bounded in time). */
  async takeDownloads(): Promise<DownloadReport[]> {
    const pending = this.pendingDownloads;
    this.pendingDownloads = [];
    return Promise.all(pending);
  }

  /** Resolves when a download starts, or after `ms` (true if one is pending). */
  async downloadStarted(ms: number): Promise<boolean> {
    if (this.pendingDownloads.length) return true;
    let timer: NodeJS.Timeout | undefined;
    await new Promise<void>((resolve) => {
      this.downloadWaiters.push(resolve);
      timer = setTimeout(resolve, ms);
    });
    clearTimeout(timer);
    return this.pendingDownloads.length > 0;
  }

  /** Sequence number of the latest request (a marker: requests after it are newer). */
  get lastRequestSeq(): number {
    return this.requestSeq;
  }
  private readonly byRequest = new WeakMap<Request, RequestEntry>();

  /** Which tab issued each snapshot ref (shared by the browser's tabs). */
  readonly refs: RefRegistry<Tab>;

  constructor(
    readonly id: number,
    readonly page: Page,
    hooks: TabHooks,
  ) {
    this.refs = hooks.refs;
    page.on('console', (msg) => {
      const loc = msg.location();
      this.pushConsole({
        level: LEVELS[msg.type()] ?? 'info',
        text: msg.text(),
        location: loc.url ? `${loc.url}:${loc.lineNumber + 1}:${loc.columnNumber + 1}` : undefined,
      });
    });
    page.on('pageerror', (error) =>
      this.pushConsole({ level: 'error', text: `Uncaught ${error.name}: ${error.message}` }),
    );
    page.on('request', (request) => {
      const entry: RequestEntry = {
        seq: ++this.requestSeq,
        method: request.method(),
        url: request.url(),
        resourceType: request.resourceType(),
      };
      this.byRequest.set(request, entry);
      this.requests.push(entry);
      if (this.requests.length > MAX_LOG_ENTRIES) {
        this.requests.shift();
        this.droppedRequests++;
      }
    });
    page.on('response', (response) => {
      if (response.request().isNavigationRequest()) {
        const headers = response.headers();
        const length = Number(headers['content-length']);
        this.downloadHints.set(response.url(), {
          contentType: headers['content-type'],
          contentLength: headers['content-length'] && Number.isSafeInteger(length) ? length : undefined,
        });
        while (this.downloadHints.size > MAX_HINTS)
          this.downloadHints.delete(this.downloadHints.keys().next().value ?? '');
      }
      const entry = this.byRequest.get(response.request());
      if (!entry) return;
      entry.status = response.status();
      if (entry.status === 403 || entry.status === 502) entry.refused = hooks.refusedRule(entry.url);
    });
    page.on('requestfailed', (request) => {
      const entry = this.byRequest.get(request);
      if (!entry) return;
      entry.failure = request.failure()?.errorText ?? 'failed';
      entry.refused = hooks.refusedRule(entry.url);
    });
    page.on('dialog', (dialog) => {
      this.dialog = dialog;
    });
    page.on('download', (download) => {
      const report = hooks.onDownload(download, this.downloadHints.get(download.url()) ?? {});
      this.pendingDownloads.push(report);
      for (const wake of this.downloadWaiters.splice(0)) wake();
    });
    page.on('filechooser', (chooser) => {
      this.fileChooser = chooser;
    });
    page.on('framenavigated', (frame) => {
      const scheme = frame.url().split(':')[0]?.toLowerCase() ?? '';
      if (frame.url() && !LOCAL_FRAME_SCHEMES.has(scheme) && !hooks.schemes.includes(scheme))
        hooks.onForbiddenFrame(this, frame, scheme);
    });
    page.on('crash', () => {
      this.crashed = true;
      hooks.onCrash(this);
    });
    page.on('close', () => {
      this.closed = true;
      hooks.onClose(this);
    });
  }

  private pushConsole(entry: Omit<ConsoleEntry, 'seq' | 'time'>): void {
    this.console.push({ seq: ++this.consoleSeq, time: Date.now(), ...entry });
    if (this.console.length > MAX_LOG_ENTRIES) {
      this.console.shift();
      this.droppedConsole++;
    }
  }
}
