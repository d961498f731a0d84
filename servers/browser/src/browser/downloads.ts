/**
 * Downloads a page starts (a click on an attachment link, a navigation to a file served as
 * `Content-Disposition: attachment`, an `<a download>`; issue 28 item 5). Each is reported to the
 * model — name, type and size when known, and what happened to it — instead of a bare "Clicked" or
 * Playwright's raw "Download is starting".
 *
 * Without `--save-downloads` the browser context refuses downloads (Playwright's
 * `acceptDownloads: false`): nothing reaches the disk, and the report says so. With it (it needs
 * `--output-dir`), a download is kept when it finishes within the navigation budget and within
 * `--max-download-bytes` (a `Content-Length` over the cap cancels it at once; a body that turns out
 * larger is deleted): it is written under `<output-dir>/downloads/` and served as the resource
 * `download://{name}`. Playwright keeps the bytes in its artifacts directory meanwhile, deleted once
 * settled.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Download } from 'playwright-core';
import type { Config } from '../config.js';
import { writeOutputFile } from '../output.js';
import { untrustedText } from '../sanitize.js';
import { playwrightMessage } from './errors.js';

/** Where saved downloads are kept as `download://` resources (resources.ts's ResourceStore). */
export interface DownloadStore {
  /** Records a saved file; returns its resource URI. */
  addDownload(name: string, file: string, mimeType: string, size: number): string;
}

/** What a navigation response said about a body that became a download. */
export interface DownloadHints {
  contentType?: string;
  contentLength?: number;
}

/** What happened to one download, for the tool result. */
export interface DownloadReport {
  /** "Download started: report.csv (text/csv, 11 bytes) from <url> — saved as …". */
  line: string;
  /** The `download://` resource of a saved download. */
  resource?: { uri: string; name: string; mimeType: string; size: number };
}

/** Where saved downloads go, inside --output-dir. */
const DOWNLOADS_DIR = 'downloads';

/** A file name safe on every platform: no path, no control or reserved characters, ≤ 120 characters. */
export function safeFileName(suggested: string): string {
  const base = path.basename(suggested.replace(/\\/g, '/'));
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
  const clean = base.replace(/[\u0000-\u001f\u007f<>:"/\\|?*]/g, '_').replace(/^\.+/, '');
  return clean.slice(-120) || 'download';
}

const sizeText = (bytes: number) =>
  bytes < 1024
    ? `${bytes} bytes`
    : bytes < 1048576
      ? `${(bytes / 1024).toFixed(1)} KiB`
      : `${(bytes / 1048576).toFixed(1)} MiB`;

/**
 * Settles `download`: refuses, cancels, discards or saves it per `config` (see the module comment),
 * and says which. Never throws; bounded by the navigation budget.
 */
export async function settleDownload(
  download: Download,
  hints: DownloadHints,
  config: Config,
  store: DownloadStore,
): Promise<DownloadReport> {
  const name = safeFileName(download.suggestedFilename());
  const url = download.url();
  const type = hints.contentType?.split(';')[0]?.trim() || undefined;
  const facts = [type, hints.contentLength !== undefined ? sizeText(hints.contentLength) : undefined]
    .filter(Boolean)
    .join(', ');
  const head = `Download started: ${untrustedText(name)}${facts ? ` (${facts})` : ''} from ${untrustedText(url.slice(0, 300))}`;
  const cap = config.maxDownloadBytes;
  if (!config.saveDownloads || !config.outputDir) {
    await download.cancel().catch(() => {});
    return {
      line: `${head} — not saved: this server does not keep downloads (the operator can enable that with --save-downloads and --output-dir).`,
    };
  }
  if (hints.contentLength !== undefined && hints.contentLength > cap) {
    await download.cancel().catch(() => {});
    await download.delete().catch(() => {});
    return {
      line: `${head} — cancelled: ${sizeText(hints.contentLength)} is over the download cap of ${sizeText(cap)} (--max-download-bytes).`,
    };
  }
  let timer: NodeJS.Timeout | undefined;
  const budget = config.timeouts.navigation;
  const finished = await Promise.race([
    download.path().then(
      (file) => ({ file }),
      (error: unknown) => ({ error: playwrightMessage(error) }),
    ),
    new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), budget);
    }),
  ]);
  clearTimeout(timer);
  try {
    if (finished === 'timeout') {
      await download.cancel().catch(() => {});
      return { line: `${head} — cancelled: it did not finish within ${budget} ms (the navigation budget).` };
    }
    if ('error' in finished) return { line: `${head} — failed: ${untrustedText(finished.error)}` };
    const failure = await download.failure().catch(() => null);
    if (failure) return { line: `${head} — failed: ${untrustedText(failure)}` };
    const size = (await stat(finished.file)).size;
    if (size > cap)
      return {
        line: `${head} — discarded: ${sizeText(size)} is over the download cap of ${sizeText(cap)} (--max-download-bytes).`,
      };
    const saved = await writeOutputFile(
      config.outputDir,
      await freeName(config, name),
      await readFile(finished.file),
      'download',
    );
    const mimeType = type ?? 'application/octet-stream';
    const uri = store.addDownload(path.basename(saved), saved, mimeType, size);
    return {
      line: `${head} — saved as ${saved} (${sizeText(size)}); resource ${uri}.`,
      resource: { uri, name: path.basename(saved), mimeType, size },
    };
  } catch (error) {
    return { line: `${head} — not saved: ${untrustedText(playwrightMessage(error))}` };
  } finally {
    await download.delete().catch(() => {});
  }
}

/** `downloads/<name>`, or `downloads/<stem>-N<ext>` when taken (an earlier download is never overwritten). */
async function freeName(config: Config, name: string): Promise<string> {
  const ext = path.extname(name);
  const stem = name.slice(0, name.length - ext.length);
  for (let n = 0; n < 1000; n++) {
    const candidate = path.join(DOWNLOADS_DIR, n ? `${stem}-${n}${ext}` : name);
    const resolved = await config.outputDir?.resolve(candidate).catch(() => undefined);
    if (!resolved) return candidate;
    if (
      !(await stat(resolved.absolute).then(
        () => true,
        () => false,
      ))
    )
      return candidate;
  }
  return path.join(DOWNLOADS_DIR, `${stem}-${Date.now()}${ext}`);
}
