/**
 * How Chromium is launched. Everything here comes from the operator's config; tool arguments never
 * reach it (case BR-06). Playwright is imported lazily so that a server start (tools/list) does not
 * pay for loading it.
 *
 * - Flags: headless unless --headed; no GPU; no background networking, component updates, sync,
 *   first-run UI or QUIC (nothing talks to the network behind the model's back, and no UDP path
 *   around the proxy); WebRTC restricted to proxied connections (no local-address leaks or UDP to
 *   private networks); Playwright's disabled features plus RenderDocument (features.ts).
 * - Network: every connection goes through the policy proxy (Playwright's `proxy` launch option;
 *   it also removes Chromium's implicit loopback bypass with `<-loopback>`).
 * - Profile: a fresh temporary profile per process (Playwright creates and removes it), in which each
 *   client session opens its own context (openContext; --storage-state seeds each), or the operator's
 *   --user-data-dir as the browser's one persistent context.
 * - Service workers are blocked (their fetches would bypass per-page request tracking), downloads
 *   are refused unless --save-downloads (downloads.ts).
 * - Signals are left to the server's own shutdown (handleSIGINT/TERM/HUP false); Playwright still
 *   kills the browser's process group when the Node process exits, whatever the cause.
 */
import type { Browser, BrowserContext, LaunchOptions } from 'playwright-core';
import type { Config } from '../config.js';
import { DISABLE_FEATURES_FLAG } from './features.js';

export const CHROMIUM_FLAGS = [
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-quic',
  '--no-first-run',
  '--disable-sync',
  '--disable-default-apps',
  '--disable-extensions',
  '--disable-breakpad',
  '--metrics-recording-only',
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--webrtc-ip-handling-policy=disable_non_proxied_udp',
  DISABLE_FEATURES_FLAG,
];

/** Environment variables passed to Chromium (the rest — tokens, keys — stay in the server). */
const BROWSER_ENV = [
  'PATH',
  'HOME',
  'TMPDIR',
  'TMP',
  'TEMP',
  'LANG',
  'LC_ALL',
  'TZ',
  'DISPLAY',
  'WAYLAND_DISPLAY',
  'XAUTHORITY',
  'XDG_RUNTIME_DIR',
  'XDG_CONFIG_HOME',
  'XDG_CACHE_HOME',
  'FONTCONFIG_PATH',
  'DBUS_SESSION_BUS_ADDRESS',
  'SYSTEMROOT',
  'LOCALAPPDATA',
  'PROGRAMFILES',
];

function browserEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of BROWSER_ENV) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return env;
}

export interface Launched {
  /** Undefined for a persistent context (--user-data-dir), which owns its browser. */
  browser: Browser | undefined;
  /** The persistent context (--user-data-dir: the browser's only one); undefined otherwise. */
  persistent: BrowserContext | undefined;
}

/** Options of every context the server opens (the operator's viewport; no service workers or downloads). */
function contextOptions(config: Config) {
  // Downloads reach the disk only when the operator asked for them (--save-downloads; downloads.ts).
  return {
    viewport: config.viewport,
    serviceWorkers: 'block' as const,
    acceptDownloads: config.saveDownloads,
  };
}

/** Launches Chromium per `config`, its traffic through `proxyUrl`; rejects after the launch budget. */
export async function launchBrowser(config: Config, proxyUrl: string): Promise<Launched> {
  const { chromium } = await import('playwright-core');
  const options: LaunchOptions = {
    executablePath: config.browser.executablePath,
    headless: config.headless,
    chromiumSandbox: config.sandbox,
    args: CHROMIUM_FLAGS,
    env: browserEnv(),
    proxy: { server: proxyUrl },
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
    timeout: config.timeouts.launch,
  };
  if (config.userDataDir) {
    const persistent = await chromium.launchPersistentContext(config.userDataDir, {
      ...options,
      ...contextOptions(config),
    });
    return { browser: undefined, persistent };
  }
  return { browser: await chromium.launch(options), persistent: undefined };
}

/**
 * A fresh context (own cookies, storage, tabs) in `browser`, seeded with --storage-state when given.
 * Errors: rejects as Playwright does (browser gone, unreadable storage state).
 */
export function openContext(browser: Browser, config: Config): Promise<BrowserContext> {
  return browser.newContext({
    ...contextOptions(config),
    ...(config.storageState ? { storageState: config.storageState } : {}),
  });
}
