// `mcp-harness fake <vendor>`: one of the harness's fake APIs on 127.0.0.1 with the demo's seeded
// scene, for trying a server offline. Prints the environment that points the server at it, what the
// fake holds, a first call that works, and a host config to paste.

import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { serverBin } from './connect.js';
import { FAKE_VENDORS, type FakeVendorName, type RunningFake, startNamedFake } from './fake-scenes.js';

export { FAKE_VENDORS, type FakeVendorName, type RunningFake, startNamedFake };

/** `KEY=value` with the value single-quoted for a POSIX shell when it needs it. */
function shellWord(value: string): string {
  return /^[\w./:@%+,=-]*$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

/** The `{"mcpServers": {…}}` host config (Claude Desktop, Cursor, Windsurf) that runs the built server against `fake`. */
export function fakeHostConfig(fake: RunningFake): { mcpServers: Record<string, unknown> } {
  const bin = serverBin(fake.server);
  return {
    mcpServers: {
      [fake.server]: { command: bin.command, args: [...bin.args, ...fake.args], env: fake.env },
    },
  };
}

/** What `fake` prints: env lines (`KEY=value`), then `#` comments and the host config JSON. */
export function fakeReport(vendor: FakeVendorName, fake: RunningFake, configPath: string): string {
  const envLines = Object.entries(fake.env).map(([name, value]) => `${name}=${shellWord(value)}`);
  const bin = serverBin(fake.server);
  const cli = fileURLToPath(new URL('./cli.js', import.meta.url));
  const server = [bin.command, ...bin.args, ...fake.args].map(shellWord).join(' ');
  const call = `${shellWord(process.execPath)} ${shellWord(cli)} call ${fake.firstCall.tool} ${shellWord(JSON.stringify(fake.firstCall.arguments))} --config ${shellWord(configPath)} --server ${fake.server}`;
  return [
    ...envLines,
    `# fake ${vendor} on 127.0.0.1, seeded with:`,
    ...fake.seeded.map((line) => `#   ${line}`),
    '# a first call (the harness CLI starts the server from the config below, calls, prints the result):',
    `#   ${call}`,
    '# or start the server yourself (stdio; the lines above exported):',
    `#   ${envLines.join(' ')} ${server}`,
    ...firstRunLines(fake, call, server),
    `# host config (written to ${configPath}; paste it, or its "${fake.server}" entry under "mcpServers"):`,
    JSON.stringify(fakeHostConfig(fake), null, 2),
    '# Ctrl-C stops it (and removes the files above)',
    '',
  ].join('\n');
}

/**
 * Drive's first-run variant: the same server and call without a token, signing in at the fake's
 * consent page (through this CLI's `--elicit-url`, or `auth` first). Empty for other fakes.
 */
function firstRunLines(fake: RunningFake, call: string, server: string): string[] {
  if (!fake.firstRun) return [];
  // `env -u`: a GDRIVE_CREDENTIALS_PATH exported from the lines above would name a token file.
  const env = [
    'env -u GDRIVE_CREDENTIALS_PATH',
    ...Object.entries(fake.firstRun).map(([name, value]) => `${name}=${shellWord(value)}`),
  ].join(' ');
  const direct = call.replace(/ --config .*$/, ` --elicit-url -- ${server}`);
  return [
    '# first run, no token yet: the first call signs in through the client (it prints the URL of the',
    "# fake's consent page; open it, or curl -L it); or sign in first with `auth`, then call:",
    `#   ${env} ${direct}`,
    `#   ${env} ${server} auth`,
  ];
}

/**
 * Runs `fake VENDOR` until SIGINT/SIGTERM: prints {@link fakeReport} on stdout, then closes the fake
 * and resolves to 0 on the signal. The signal handlers are in place before anything is printed, so a
 * signal sent as soon as the output is read ends the run cleanly (exit 0), never by the signal.
 */
export async function runFake(vendor: FakeVendorName): Promise<number> {
  let stop = () => {};
  const stopped = new Promise<void>((resolve) => {
    stop = resolve;
  });
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  const fake = await startNamedFake(vendor);
  try {
    const configPath = `${fake.dir}/mcp.json`;
    await writeFile(configPath, `${JSON.stringify(fakeHostConfig(fake), null, 2)}\n`, { mode: 0o600 });
    process.stdout.write(fakeReport(vendor, fake, configPath));
    await stopped;
  } finally {
    await fake.close();
  }
  return 0;
}
