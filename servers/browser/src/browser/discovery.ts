/**
 * Finding the browser binary, in order: `--executable-path` / `MCP_BROWSER_EXECUTABLE`; a
 * Playwright-managed Chromium (`PLAYWRIGHT_BROWSERS_PATH` or the default cache, as `npx playwright
 * install chromium` lays it out); then a system Chrome/Chromium on the PATH (Debian's `chromium`,
 * `google-chrome`, …) or at the usual macOS/Windows install locations. Nothing is downloaded.
 * Playwright itself is not loaded here, so a start stays fast.
 */
import { accessSync, constants, readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { ConfigError } from '@refmcp/shared/server';

export interface BrowserBinary {
  executablePath: string;
  /** How it was found, for the startup log and error messages. */
  source: 'option' | 'env' | 'playwright' | 'path' | 'system';
}

/** Names looked up on the PATH, in order. */
export const PATH_NAMES = [
  'chromium',
  'chromium-browser',
  'google-chrome',
  'google-chrome-stable',
  'chrome',
  'microsoft-edge',
];

const SYSTEM_LOCATIONS = [
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
  'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe',
  'C:\\Program Files (x86)\\Google\\Chrome\\Application\\chrome.exe',
];

export const INSTALL_HINT =
  'No Chrome or Chromium was found. Install one — Debian/Ubuntu: `apt-get install chromium`; ' +
  'macOS/Windows: Google Chrome; or `npx playwright install chromium` — or pass ' +
  '--executable-path PATH (env MCP_BROWSER_EXECUTABLE).';

function isExecutableFile(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, process.platform === 'win32' ? constants.F_OK : constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Playwright's browser cache directory (its registry's default locations). */
function playwrightCacheDir(env: NodeJS.ProcessEnv): string | undefined {
  const configured = env.PLAYWRIGHT_BROWSERS_PATH;
  if (configured && configured !== '0') return configured;
  if (process.platform === 'linux')
    return path.join(env.XDG_CACHE_HOME || path.join(homedir(), '.cache'), 'ms-playwright');
  if (process.platform === 'darwin') return path.join(homedir(), 'Library', 'Caches', 'ms-playwright');
  if (process.platform === 'win32') return path.join(env.LOCALAPPDATA || homedir(), 'ms-playwright');
  return undefined;
}

/** Binaries inside one Playwright browser directory (chromium-NNNN or chromium_headless_shell-NNNN). */
const MANAGED_BINARIES = [
  ['chrome-linux64', 'chrome'],
  ['chrome-linux', 'chrome'],
  ['chrome-headless-shell-linux64', 'chrome-headless-shell'],
  ['chrome-mac', 'Chromium.app', 'Contents', 'MacOS', 'Chromium'],
  ['chrome-mac-arm64', 'Google Chrome for Testing.app', 'Contents', 'MacOS', 'Google Chrome for Testing'],
  ['chrome-win', 'chrome.exe'],
  ['chrome-win64', 'chrome.exe'],
];

/** The newest installed Playwright-managed Chromium, or undefined. */
export function findPlaywrightChromium(env: NodeJS.ProcessEnv): string | undefined {
  const dir = playwrightCacheDir(env);
  if (!dir) return undefined;
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return undefined;
  }
  const revision = (name: string) => Number(/-(\d+)$/.exec(name)?.[1] ?? 0);
  const browsers = entries
    .filter((name) => /^chromium(_headless_shell)?-\d+$/.test(name))
    // Full Chromium before the headless shell, newest revision first.
    .sort(
      (a, b) => Number(a.includes('headless')) - Number(b.includes('headless')) || revision(b) - revision(a),
    );
  for (const name of browsers) {
    for (const parts of MANAGED_BINARIES) {
      const candidate = path.join(dir, name, ...parts);
      if (isExecutableFile(candidate)) return candidate;
    }
  }
  return undefined;
}

/** The first of {@link PATH_NAMES} found on `env.PATH`, or undefined. */
export function findOnPath(env: NodeJS.ProcessEnv): string | undefined {
  const dirs = (env.PATH ?? '').split(path.delimiter).filter(Boolean);
  const exts = process.platform === 'win32' ? ['.exe', ''] : [''];
  for (const name of PATH_NAMES) {
    for (const dir of dirs) {
      for (const ext of exts) {
        const candidate = path.join(dir, name + ext);
        if (isExecutableFile(candidate)) return candidate;
      }
    }
  }
  return undefined;
}

/**
 * The browser to launch. An explicit path (option or env) must be an executable file, else
 * ConfigError naming it; with none found anywhere, ConfigError with {@link INSTALL_HINT} (exit 2).
 */
export function findBrowser(
  explicit: string | undefined,
  env: NodeJS.ProcessEnv,
  fromOption = true,
): BrowserBinary {
  if (explicit) {
    const resolved = path.resolve(explicit);
    if (!isExecutableFile(resolved))
      throw new ConfigError(
        `--executable-path / MCP_BROWSER_EXECUTABLE: "${explicit}" is not an executable file. ${INSTALL_HINT}`,
      );
    return { executablePath: resolved, source: fromOption ? 'option' : 'env' };
  }
  const managed = findPlaywrightChromium(env);
  if (managed) return { executablePath: managed, source: 'playwright' };
  const onPath = findOnPath(env);
  if (onPath) return { executablePath: onPath, source: 'path' };
  const system = SYSTEM_LOCATIONS.find(isExecutableFile);
  if (system) return { executablePath: system, source: 'system' };
  throw new ConfigError(INSTALL_HINT);
}
