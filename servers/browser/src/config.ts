/**
 * Startup configuration of the browser server: which browser, how it is launched, the network
 * policy, where files may be written and read, and the budgets. Everything here is the operator's;
 * no tool argument can change any of it (case BR-06). Bad input is a ConfigError (exit 2, usage on
 * stderr).
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import {
  NETWORK_OPTIONS,
  type NetworkPolicy,
  networkOptionsHelp,
  networkPolicyFromFlags,
} from '@refmcp/shared/net/policy';
import { AllowedRoots, expandHome, PathError } from '@refmcp/shared/paths';
import { ConfigError, type ConfigInput, intFlag, splitList } from '@refmcp/shared/server';
import { type BrowserBinary, findBrowser } from './browser/discovery.js';

export interface Config {
  /** The Chromium/Chrome binary and how it was found. */
  browser: BrowserBinary;
  headless: boolean;
  /** Chromium's own sandbox (`--sandbox`); off by default as in Playwright (root/containers). */
  sandbox: boolean;
  /** Persistent profile directory; undefined = a fresh temporary profile per process. */
  userDataDir?: string;
  /** Cookies/localStorage to start from (Playwright storage-state JSON); ignored with userDataDir. */
  storageState?: string;
  viewport: { width: number; height: number };
  /** The network policy every request of the browser passes through (via the policy proxy). */
  policy: NetworkPolicy;
  /** Where screenshots, PDFs and saved snapshots may be written; undefined = nowhere. */
  outputDir?: AllowedRoots;
  /** Keep downloads under outputDir/downloads (--save-downloads; needs --output-dir). */
  saveDownloads: boolean;
  /** Largest download kept, bytes (--max-download-bytes). */
  maxDownloadBytes: number;
  /** Directories files may be uploaded from; empty = uploads refused. */
  uploadRoots?: AllowedRoots;
  /** Whether browser_evaluate is offered (off by default). */
  evaluate: boolean;
  /** Budget of one snapshot or extracted text in a result, in UTF-8 bytes. */
  maxSnapshotBytes: number;
  /** Pages with more elements get a ref-less outline instead of a snapshot (case BR-04). */
  maxSnapshotElements: number;
  /** Budget of extracted Markdown/text in one result, in UTF-8 bytes. */
  maxTextBytes: number;
  /** Time budgets in milliseconds. */
  timeouts: { navigation: number; action: number; snapshot: number; launch: number };
  /** Most entries a console or network listing returns per page. */
  maxEntries: number;
}

/** Default of --max-download-bytes: 20 MiB. */
export const DEFAULT_MAX_DOWNLOAD_BYTES = 20 * 1024 * 1024;

export const OPTIONS = {
  'executable-path': { type: 'string' },
  headed: { type: 'boolean' },
  sandbox: { type: 'boolean' },
  'user-data-dir': { type: 'string' },
  'storage-state': { type: 'string' },
  viewport: { type: 'string' },
  ...NETWORK_OPTIONS,
  'allowed-schemes': { type: 'string' },
  'output-dir': { type: 'string' },
  'save-downloads': { type: 'boolean' },
  'max-download-bytes': { type: 'string' },
  'upload-dir': { type: 'string', multiple: true },
  'enable-evaluate': { type: 'boolean' },
  'max-snapshot-bytes': { type: 'string' },
  'max-snapshot-elements': { type: 'string' },
  'max-text-bytes': { type: 'string' },
  'max-entries': { type: 'string' },
  'navigation-timeout': { type: 'string' },
  'action-timeout': { type: 'string' },
  'snapshot-timeout': { type: 'string' },
} as const;

export const OPTIONS_HELP = `Browser:
  --executable-path PATH  Chrome/Chromium binary (env MCP_BROWSER_EXECUTABLE); default: a
                          Playwright-managed Chromium if installed, else chromium/google-chrome on PATH
  --headed                show the browser window (default: headless)
  --sandbox               enable Chromium's sandbox (off by default, as in Playwright; needs a non-root
                          user and user namespaces)
  --user-data-dir DIR     keep the profile in DIR (default: a fresh temporary profile per process,
                          removed on exit)
  --storage-state FILE    start from this Playwright storage state (cookies, localStorage)
  --viewport WxH          viewport size in CSS pixels (default 1280x720)

Network policy (the browser reaches the network only through the server's policy proxy):
${networkOptionsHelp('the browser')}
  --allowed-schemes LIST  extra URL schemes navigation may use: file, data (default: http, https only)

Files:
  --output-dir DIR        where screenshots, PDFs and saved snapshots may be written (created if
                          missing); without it, file output is refused and screenshots are inline only
  --save-downloads        keep files pages download under --output-dir/downloads (needs --output-dir),
                          served as download:// resources; without it downloads are refused and reported
  --max-download-bytes N  largest download kept (default 20971520); larger ones are cancelled
  --upload-dir DIR        a directory browser_file_upload may read from (repeatable; default: none)

Tools and budgets:
  --enable-evaluate       offer browser_evaluate (runs model-written JavaScript in the page)
  --max-snapshot-bytes N  snapshot budget per result in bytes (default 100000)
  --max-snapshot-elements N  pages with more DOM elements get a quick ref-less outline instead of a
                          snapshot (default 40000; snapshots cost ~0.1–0.3 ms per element)
  --max-text-bytes N      Markdown/text budget per result in bytes (default 100000)
  --max-entries N         console/network entries per page (default 200)
  --navigation-timeout MS navigation time budget (default 30000)
  --action-timeout MS     click/type/… time budget (default 5000)
  --snapshot-timeout MS   accessibility snapshot time budget (default 30000)`;

/** "1280x720" → {width, height}; each between 100 and 10000 CSS pixels. */
export function parseViewport(raw: string | undefined): { width: number; height: number } {
  if (raw === undefined) return { width: 1280, height: 720 };
  const match = /^(\d{3,5})x(\d{3,5})$/.exec(raw.trim());
  const width = Number(match?.[1]);
  const height = Number(match?.[2]);
  if (!match || width < 100 || height < 100 || width > 10000 || height > 10000)
    throw new ConfigError(`--viewport: expected WIDTHxHEIGHT between 100x100 and 10000x10000, got "${raw}"`);
  return { width, height };
}

/** Schemes navigation may use beyond http/https; only a few make sense, the rest are refused. */
const EXTRA_SCHEMES = new Set(['file', 'data']);

function parseSchemes(raw: unknown): string[] {
  const list = splitList(raw) ?? [];
  const schemes = list.map((s) => s.toLowerCase().replace(/:$/, ''));
  for (const scheme of schemes) {
    if (scheme === 'http' || scheme === 'https') continue;
    if (!EXTRA_SCHEMES.has(scheme))
      throw new ConfigError(`--allowed-schemes: "${scheme}" cannot be enabled (possible: file, data)`);
  }
  return [...new Set(['http', 'https', ...schemes])];
}

async function roots(dirs: string[], flag: string, create: boolean): Promise<AllowedRoots> {
  try {
    if (create) for (const dir of dirs) await mkdir(path.resolve(expandHome(dir)), { recursive: true });
    return await AllowedRoots.fromConfig(dirs);
  } catch (error) {
    if (error instanceof PathError) throw new ConfigError(`${flag}: ${error.message}`);
    throw new ConfigError(`${flag}: ${(error as Error).message}`);
  }
}

export async function configure({ values, env }: ConfigInput): Promise<Config> {
  const fromOption = values['executable-path'] as string | undefined;
  const browser = findBrowser(
    fromOption ?? (env.MCP_BROWSER_EXECUTABLE || undefined),
    env,
    fromOption !== undefined,
  );
  const uploadDirs = (values['upload-dir'] as string[] | undefined) ?? [];
  const outputDir = values['output-dir'] as string | undefined;
  const userDataDir = values['user-data-dir'] as string | undefined;
  const storageState = values['storage-state'] as string | undefined;
  if (values['save-downloads'] === true && !outputDir)
    throw new ConfigError('--save-downloads needs --output-dir (the directory downloads are saved under)');
  if (userDataDir && storageState)
    throw new ConfigError(
      '--storage-state cannot be combined with --user-data-dir (the profile keeps its own state)',
    );
  return {
    browser,
    headless: values.headed !== true,
    sandbox: values.sandbox === true,
    userDataDir: userDataDir ? path.resolve(expandHome(userDataDir)) : undefined,
    storageState: storageState ? path.resolve(expandHome(storageState)) : undefined,
    viewport: parseViewport(values.viewport as string | undefined),
    policy: networkPolicyFromFlags(values, { schemes: parseSchemes(values['allowed-schemes']) }),
    outputDir: outputDir ? await roots([outputDir], '--output-dir', true) : undefined,
    saveDownloads: values['save-downloads'] === true,
    maxDownloadBytes: intFlag(values, 'max-download-bytes', DEFAULT_MAX_DOWNLOAD_BYTES),
    uploadRoots: uploadDirs.length ? await roots(uploadDirs, '--upload-dir', false) : undefined,
    evaluate: values['enable-evaluate'] === true,
    maxSnapshotBytes: intFlag(values, 'max-snapshot-bytes', 100_000),
    maxSnapshotElements: intFlag(values, 'max-snapshot-elements', 40_000),
    maxTextBytes: intFlag(values, 'max-text-bytes', 100_000),
    maxEntries: intFlag(values, 'max-entries', 200),
    timeouts: {
      navigation: intFlag(values, 'navigation-timeout', 30_000),
      action: intFlag(values, 'action-timeout', 5_000),
      snapshot: intFlag(values, 'snapshot-timeout', 30_000),
      launch: 30_000,
    },
  };
}
