// mcp-harness end to end: the built dist/cli.js spawned as a user runs it, against the fixtures,
// with the server given after `--` or through a host config file.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

const harnessDir = fileURLToPath(new URL('..', import.meta.url));
const cli = join(harnessDir, 'dist/cli.js');
const good = ['--', 'node', 'test/fixtures/good-server.mjs'];
const claudeConfig = 'test/fixtures/claude_desktop_config.json';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `node dist/cli.js ARGS…` in test-harness/ and collects its output. */
function runCli(args: string[], env: Record<string, string> = {}, input?: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], {
      cwd: harnessDir,
      env: { ...process.env, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    child.stdin.end(input);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Newest modification time under `dir`, in ms. */
function newest(dir: string): number {
  return Math.max(
    ...readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => statSync(join(e.parentPath, e.name)).mtimeMs),
  );
}

beforeAll(() => {
  // Build only when dist/ is missing or older than src/ (turbo has usually built it already).
  let built = 0;
  try {
    built = statSync(cli).mtimeMs;
  } catch {
    built = 0;
  }
  if (built < newest(join(harnessDir, 'src'))) {
    execFileSync(join(harnessDir, '../node_modules/.bin/pnpm'), ['run', 'build'], {
      cwd: harnessDir,
      stdio: 'pipe',
    });
  }
}, 60_000);

describe('mcp-harness tools / call', () => {
  it('gives a server after -- the environment of the shell (a token set before the command reaches it)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'refmcp-cli-env-'));
    try {
      const probe = join(dir, 'probe');
      const run = await runCli(
        [
          'tools',
          '--',
          'sh',
          '-c',
          `printf %s "$HARNESS_PROBE" > ${probe}; exec node test/fixtures/good-server.mjs`,
        ],
        { HARNESS_PROBE: 'token-123' },
      );
      expect(run.code).toBe(0);
      expect(readFileSync(probe, 'utf8')).toBe('token-123');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('lists tools readably and as JSON', async () => {
    const [human, json] = await Promise.all([
      runCli(['tools', ...good]),
      runCli(['tools', '--json', ...good]),
    ]);
    expect(human.code).toBe(0);
    expect(human.stdout).toContain('echo — Echo  [read-only, idempotent]');
    expect(human.stdout).toContain('args: text*: string, times?: integer');
    expect(json.code).toBe(0);
    const names = (JSON.parse(json.stdout) as { tools: { name: string }[] }).tools.map((t) => t.name);
    expect(names).toEqual(['echo', 'add', 'save_note', 'call_api', 'slow']); // all three pages
  });

  it('calls a tool in either era; a tool error or unknown tool exits 1', async () => {
    const [ok, modern, toolError, unknown] = await Promise.all([
      runCli(['call', 'echo', '{"text":"hi","times":3}', ...good]),
      runCli(['call', 'add', '{"a":2,"b":3}', '--era', 'modern', '--json', ...good]),
      runCli(['call', 'call_api', '{"resource":"private"}', ...good]),
      runCli(['call', 'no_such_tool', ...good]),
    ]);
    expect(ok).toMatchObject({ code: 0, stdout: 'hihihi\n' });
    expect(modern.code).toBe(0);
    expect(JSON.parse(modern.stdout)).toMatchObject({ structuredContent: { sum: 5 } });
    expect(toolError).toMatchObject({
      code: 1,
      stdout: 'error: upstream said 401 Unauthorized: check the configured token\n',
    });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('JSON-RPC error -32602');
  });

  it("session calls stdin's tools in order on one server; a bad line or failed call is reported and exits 1", async () => {
    const script = [
      '# a comment',
      'echo {"text":"a"}',
      '',
      'add {"a":2,"b":3}',
      'echo {not json}',
      'echo {"text":"b"}',
    ];
    const run = await runCli(['session', ...good], {}, `${script.join('\n')}\n`);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('> echo {"text":"a"}\na\n\n> add {"a":2,"b":3}\n5\n\n> echo {"text":"b"}\nb\n\n');
    expect(run.stderr).toMatch(/line 5: the arguments of echo: not valid JSON/);
    const clean = await runCli(['session', '--json', ...good], {}, 'add {"a":1,"b":1}\nno_such_tool\n');
    expect(clean.code).toBe(1);
    const lines = clean.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({ tool: 'add', result: { structuredContent: { sum: 2 } } });
    expect(lines[1]).toMatchObject({
      tool: 'no_such_tool',
      error: expect.stringContaining('JSON-RPC error -32602'),
    });
    expect((await runCli(['session', ...good], {}, 'echo {"text":"ok"}\n')).code).toBe(0);
  });

  it('takes the server from a Claude Desktop style config and from a VS Code JSONC config', async () => {
    const [claude, vscode] = await Promise.all([
      runCli(['call', 'call_api', '{"resource":"public/x"}', '--config', claudeConfig, '--server', 'good']),
      runCli(['tools', '--config', 'test/fixtures/vscode-mcp.jsonc', '--server', 'good']),
    ]);
    expect(claude).toMatchObject({ code: 0, stdout: 'fetched public/x\n' });
    expect(vscode.code).toBe(0);
    expect(vscode.stdout).toContain('slow — Slow operation');
  });
});

describe('mcp-harness check', () => {
  it('passes the good server (from a host config), fails the bad one (--json), exit 0 / 1', async () => {
    const [pass, fail] = await Promise.all([
      runCli([
        'check',
        '--allow-destructive',
        '--secret',
        'TESTTOKEN123',
        '--slow-call',
        'slow',
        '--slow-args',
        '{"ms":4000}', // outlasts tools/list even on a loaded machine (ALL-07 checks the order)
        '--config',
        claudeConfig,
        '--server',
        'good',
      ]),
      runCli([
        'check',
        '--json',
        '--secret',
        'TESTTOKEN123',
        '--skip',
        'ALL-04',
        '--config',
        claudeConfig,
        '--server',
        'bad',
      ]),
    ]);
    expect(pass.code, pass.stdout + pass.stderr).toBe(0);
    expect(pass.stdout).toMatch(/^good-fixture 1\.0\.0: 12 check\(s\), all passed/);
    expect(pass.stdout).toContain('✓ ALL-07 slow call does not block others\n');
    expect(pass.stdout).not.toContain('✗');

    expect(fail.code).toBe(1);
    const report = JSON.parse(fail.stdout) as {
      ok: boolean;
      checks: { id: string; ok: boolean; skipped?: boolean }[];
    };
    expect(report.ok).toBe(false);
    const failed = report.checks.filter((c) => !c.ok).map((c) => c.id);
    expect(failed).toEqual([
      'META',
      'PORT',
      'ALL-01',
      'ALL-02',
      'ALL-03',
      'ALL-05',
      'ALL-08',
      'ALL-09',
      'ALL-10',
    ]);
    expect(report.checks.find((c) => c.id === 'ALL-04')?.skipped).toBe(true);
    // Without --allow-destructive only read-only tools are called; call_api is not annotated so.
    expect(fail.stdout).toContain('call_api: not read-only; skipped (destructive calls not allowed)');
    expect(fail.stdout).not.toContain('TESTTOKEN123');
  }, 120_000); // two full checks at once: a minute and more on a loaded machine
});

describe.concurrent('mcp-harness usage errors exit 2 with one line on stderr and where help is', () => {
  it('no command at all prints the usage on stderr, exit 2', async () => {
    const run = await runCli([]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^mcp-harness: no command given\n\nusage: mcp-harness <command>/);
  });
  it.each([
    ['unknown command', ['frobnicate', ...good]],
    ['no server', ['tools']],
    ['both server forms', ['tools', '--config', claudeConfig, '--server', 'good', ...good]],
    ['unknown option', ['tools', '--bogus', ...good]],
    ['bad era', ['tools', '--era', 'future', ...good]],
    ['bad JSON arguments', ['call', 'echo', '{not json', ...good]],
    ['unknown fake', ['fake', 'jira']],
    ['unknown server in config', ['tools', '--config', claudeConfig, '--server', 'nope']],
    [
      'non-stdio server in config',
      ['tools', '--config', 'test/fixtures/vscode-mcp.jsonc', '--server', 'remote'],
    ],
  ])('%s', async (_label, args) => {
    const run = await runCli(args);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(
      /^mcp-harness: .+\nRun `mcp-harness --help` \(from this checkout: `node \S+cli\.js --help`\) for the usage\.\n$/,
    );
    expect(run.stderr).not.toContain('usage: mcp-harness');
  });
  it('call with neither a tool nor a server names the missing tool first', async () => {
    const run = await runCli(['call']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^mcp-harness: call needs a TOOL name\n/);
  });
  it('--help prints usage on stdout and exits 0', async () => {
    const run = await runCli(['--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('usage: mcp-harness');
  });
});

/**
 * Starts `node dist/cli.js fake VENDOR`; resolves with its env lines, the host config it prints and
 * all it printed, once it has printed them.
 */
function startFake(vendor: string) {
  const child = spawn(process.execPath, [cli, 'fake', vendor], {
    cwd: harnessDir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  const printed = new Promise<{ env: Record<string, string>; config: HostConfig; stdout: string }>(
    (resolve, reject) => {
      let stdout = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => {
        stdout += d;
        if (!stdout.includes('# Ctrl-C')) return;
        const lines = stdout.split('\n');
        const envLines = lines.filter((l) => /^[A-Z_]+=/.test(l));
        const env = Object.fromEntries(
          envLines.map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
        );
        const json = lines.slice(lines.indexOf('{'), lines.lastIndexOf('}') + 1).join('\n');
        resolve({ env, config: JSON.parse(json), stdout });
      });
      child.on('error', reject);
      void exited.then((code) => reject(new Error(`fake exited early (${code})`)));
    },
  );
  return { child, env: printed.then((p) => p.env), printed, exited };
}

type HostConfig = {
  mcpServers: Record<string, { command: string; args: string[]; env: Record<string, string> }>;
};

describe('mcp-harness fake', () => {
  it('serves the seeded Slack scene on 127.0.0.1 until SIGINT, printing the env for the server', async () => {
    const fake = startFake('slack');
    try {
      const { env, config, stdout } = await fake.printed;
      expect(Object.keys(env)).toEqual(['SLACK_API_URL', 'SLACK_BOT_TOKEN', 'SLACK_USER_TOKEN']);
      expect(env.SLACK_API_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
      const answer = await fetch(new URL('auth.test', env.SLACK_API_URL), {
        method: 'POST',
        headers: { authorization: `Bearer ${env.SLACK_BOT_TOKEN}` },
      });
      expect(await answer.json()).toMatchObject({ ok: true });
      // What a first call needs: the channels (by id) the bot is in, and the user token for search.
      expect(stdout).toMatch(/channels the bot is in: .*#eng C111/);
      expect(stdout).toContain('SLACK_USER_TOKEN');
      // A host config entry that runs the built server against this fake.
      expect(config.mcpServers.slack?.env).toEqual(env);
      expect(config.mcpServers.slack?.args[0]).toBe(join(harnessDir, '..', 'servers/slack/dist/index.js'));
    } finally {
      fake.child.kill('SIGINT');
    }
    expect(await fake.exited).toBe(0);
  }, 30_000);

  it('prints a first call that works through the host config it wrote', async () => {
    const fake = startFake('github');
    try {
      const { stdout } = await fake.printed;
      expect(stdout).toMatch(/repositories: acme\/demo \(2 open issues, 1 open pull request, 1 release\)/);
      const call = /^# {3}(\S+) (\S+) call (\S+) '([^']+)' --config (\S+) --server (\S+)$/m.exec(stdout);
      expect(call?.[2]).toBe(cli);
      const [, , , tool = '', json = '', config = '', server = ''] = call ?? [];
      const run = await runCli(['call', tool, json, '--config', config, '--server', server]);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('A demo repository.');
    } finally {
      fake.child.kill('SIGTERM');
    }
    expect(await fake.exited).toBe(0);
  }, 30_000);

  it('gitlab from dist: work items (GraphQL) and group code search (advanced search on) work', async () => {
    const fake = startFake('gitlab');
    const dir = mkdtempSync(join(tmpdir(), 'fake-gitlab-'));
    try {
      const { config } = await fake.printed;
      const entry = config.mcpServers.gitlab;
      expect(entry).toBeDefined();
      // The README's way to reach a group's work items: a grp/* entry and the off-by-default toolsets.
      const path = join(dir, 'mcp.json');
      const args = [entry?.args[0] ?? '', '--projects', 'grp/*', '--toolsets', 'work_items,groups'];
      writeFileSync(path, JSON.stringify({ mcpServers: { gitlab: { ...entry, args } } }));
      // The bundled fake reads its GraphQL schema from test-harness/specs, not from beside dist/.
      const notes = await runCli([
        'call',
        'list_work_item_notes',
        '{"project_id":"grp","iid":1}',
        '--config',
        path,
        '--server',
        'gitlab',
      ]);
      expect(notes.stdout + notes.stderr).not.toContain('ENOENT');
      expect(notes.code).toBe(0);
      expect(notes.stdout).toMatch(/grp work item 1: \d+ discussions/);
      expect(notes.stdout).toMatch(/<untrusted-data source="work item title">\n.+\n<\/untrusted-data>/);
      const search = await runCli([
        'call',
        'search_group_code',
        '{"group_id":"grp","search":"demo"}',
        '--config',
        path,
        '--server',
        'gitlab',
      ]);
      expect(search.stdout + search.stderr).not.toMatch(/not available|400/);
      expect(search.code).toBe(0);
      expect(search.stdout).toContain('README.md');
    } finally {
      fake.child.kill('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    }
    expect(await fake.exited).toBe(0);
  }, 60_000);

  it('drive writes the OAuth keys and an expired token to a temp dir it removes on exit', async () => {
    const fake = startFake('drive');
    const env = await fake.env;
    try {
      expect(Object.keys(env).sort()).toEqual([
        'GDRIVE_API_URL',
        'GDRIVE_CREDENTIALS_PATH',
        'GDRIVE_OAUTH_PATH',
        'GOOGLE_OAUTH_AUTH_URL',
        'GOOGLE_OAUTH_TOKEN_URL',
      ]);
      // `auth` and sign-in through the client go to the fake's consent page, not Google's.
      expect(env.GOOGLE_OAUTH_AUTH_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/o\/oauth2\/v2\/auth$/);
      const keys = JSON.parse(readFileSync(env.GDRIVE_OAUTH_PATH ?? '', 'utf8'));
      expect(keys.installed.client_id).toBeTruthy();
      expect(JSON.parse(readFileSync(env.GDRIVE_CREDENTIALS_PATH ?? '', 'utf8')).refresh_token).toBeTruthy();
      // The multi-tab Doc is named among what the fake holds, so tab reading can be tried offline.
      expect((await fake.printed).stdout).toContain('multi-tab Doc: HANDBOOK1 "Team handbook"');
    } finally {
      // At once, as a host or a test may: the handlers are in place before the env is printed.
      fake.child.kill('SIGTERM');
    }
    expect(await fake.exited).toBe(0);
    expect(existsSync(env.GDRIVE_OAUTH_PATH ?? '')).toBe(false);
  }, 30_000);

  describe('drive first run, signing in at the fake consent page', () => {
    /** Runs a printed `#   …` shell line; the URL it asks to open, read from stderr, and its end. */
    function runPrinted(line: string, stdin = '') {
      const child = spawn('sh', ['-c', line], { cwd: tmpdir(), stdio: ['pipe', 'pipe', 'pipe'] });
      child.stdin.end(stdin);
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => {
        stdout += d;
      });
      const urls: string[] = [];
      const asked = new Promise<string>((resolve) => {
        child.stderr.setEncoding('utf8').on('data', (d: string) => {
          stderr += d;
          for (const m of stderr.matchAll(/http:\/\/127\.0\.0\.1:\d+\/o\/oauth2\/v2\/auth\?\S+/g))
            if (!urls.includes(m[0])) {
              urls.push(m[0]);
              resolve(m[0]);
            }
        });
      });
      const done = new Promise<Run>((resolve) =>
        child.on('close', (code) => resolve({ code, stdout, stderr })),
      );
      return { asked, done, urls };
    }

    /** What the user does with the URL: opens it (fetch follows the redirect to the loopback). */
    async function open(url: string) {
      const page = await fetch(url);
      return { status: page.status, text: await page.text() };
    }

    it('the printed `call … --elicit-url` prints the consent URL on stderr, accepts, and the call continues once it is opened', async () => {
      const fake = startFake('drive');
      try {
        const { stdout } = await fake.printed;
        const line = /^# {3}(env -u GDRIVE_CREDENTIALS_PATH .* call read_file .* --elicit-url -- .*)$/m.exec(
          stdout,
        )?.[1];
        expect(line, stdout).toBeTruthy();
        // Even with the token file's variable in the shell (the lines above exported).
        const run = runPrinted(
          `GDRIVE_CREDENTIALS_PATH=/nonexistent/token.json; export GDRIVE_CREDENTIALS_PATH; ${line}`,
        );
        const url = await run.asked;
        expect(url.startsWith((await fake.env).GOOGLE_OAUTH_AUTH_URL ?? '-')).toBe(true);
        expect(await open(url)).toEqual({
          status: 200,
          text: 'Signed in to Google Drive. You can close this tab.\n',
        });
        const done = await run.done;
        expect(done.code, done.stderr).toBe(0);
        expect(done.stdout).toContain('# Quarterly report');
        expect(done.stderr).toContain('the server asks you to open a URL: Sign in with Google');
        const token = /XDG_CONFIG_HOME=(\S+)/.exec(line ?? '')?.[1];
        if (process.platform === 'linux')
          expect(statSync(join(token ?? '', 'refmcp-drive', 'credentials.json')).mode & 0o777).toBe(0o600);
      } finally {
        fake.child.kill('SIGTERM');
      }
      expect(await fake.exited).toBe(0);
    }, 60_000);

    it('`session --elicit-url --era modern`: the first call signs in, the next one does not ask again', async () => {
      const fake = startFake('drive');
      try {
        const { stdout } = await fake.printed;
        const line =
          /^# {3}(env -u GDRIVE_CREDENTIALS_PATH .*) call read_file \S+ --elicit-url (-- .*)$/m.exec(stdout);
        expect(line, stdout).toBeTruthy();
        const run = runPrinted(
          `${line?.[1]} session --elicit-url --era modern ${line?.[2]}`,
          ['search {"query":"report"}', 'read_file {"file_id":"DOC1"}', ''].join('\n'),
        );
        expect((await open(await run.asked)).status).toBe(200);
        const done = await run.done;
        expect(done.code, done.stderr).toBe(0);
        expect(done.stdout).toContain('> read_file');
        expect(done.stdout).toContain('# Quarterly report');
        expect(run.urls).toHaveLength(1);
      } finally {
        fake.child.kill('SIGTERM');
      }
      expect(await fake.exited).toBe(0);
    }, 60_000);

    it('the printed `auth` line signs in at the fake consent page by hand and saves the token', async () => {
      const fake = startFake('drive');
      try {
        const { stdout } = await fake.printed;
        const line = /^# {3}(env -u GDRIVE_CREDENTIALS_PATH .* auth)$/m.exec(stdout)?.[1];
        expect(line, stdout).toBeTruthy();
        const run = runPrinted(line ?? '');
        expect((await open(await run.asked)).status).toBe(200);
        const done = await run.done;
        expect(done.code, done.stderr).toBe(0);
        expect(done.stdout).toBe('');
        expect(done.stderr).toMatch(/Saved the token to \S+first-run\S+credentials\.json/);
      } finally {
        fake.child.kill('SIGTERM');
      }
      expect(await fake.exited).toBe(0);
    }, 60_000);
  });

  it('--elicit-url is refused outside call and session', async () => {
    const run = await runCli(['tools', '--elicit-url', ...good]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--elicit-url is for call and session');
  });
});
