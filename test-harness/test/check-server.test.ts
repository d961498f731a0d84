// checkServer against two fixture servers: every check passes on the good one and fails on the bad
// one for the fault planted for it (see the header of test/fixtures/bad-server.mjs).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CheckReport, type CheckResult, checkServer, formatReport } from '../src/index.js';

const fixture = (name: string) => new URL(`./fixtures/${name}`, import.meta.url).pathname;
const SECRET = 'TESTTOKEN123';
const dir = mkdtempSync(join(tmpdir(), 'harness-check-'));
// Slow enough that tools/list, sent 200 ms into it, is answered first even on a loaded machine (ALL-07
// checks the order of the two answers).
const slowCall = { name: 'slow', arguments: { ms: 4000 } };

let good: CheckReport;
let bad: CheckReport;

beforeAll(async () => {
  const run = (file: string, tokenVar: string, audit: string) =>
    checkServer(
      {
        command: process.execPath,
        args: [fixture(file)],
        env: { [tokenVar]: SECRET, AUDIT_LOG: join(dir, audit) },
      },
      { secrets: [SECRET], slowCall, auditLog: join(dir, audit) },
    );
  [good, bad] = await Promise.all([
    run('good-server.mjs', 'GOOD_API_TOKEN', 'good-audit.log'),
    run('bad-server.mjs', 'BAD_API_TOKEN', 'bad-audit.log'),
  ]);
}, 180_000); // two full checks at once: minutes on a loaded machine

afterAll(() => rmSync(dir, { recursive: true, force: true }));

function check(report: CheckReport, id: string): CheckResult {
  const found = report.checks.find((c) => c.id === id);
  if (!found) throw new Error(`no ${id} in report:\n${formatReport(report)}`);
  return found;
}
/** Asserts the check passed, showing the whole report when it did not. */
const passes = (id: string) => expect(check(good, id).ok, formatReport(good)).toBe(true);
/** Asserts the check failed and that one of its details matches each pattern. */
const failsWith = (id: string, ...patterns: RegExp[]) => {
  const result = check(bad, id);
  expect(result.ok, formatReport(bad)).toBe(false);
  for (const p of patterns)
    expect(
      result.details.some((d) => p.test(d)),
      `${id} details ${p}:\n${result.details.join('\n')}`,
    ).toBe(true);
};

describe('checkServer on the good fixture', () => {
  it('passes every check and reports the server', () => {
    expect(good.ok, formatReport(good)).toBe(true);
    expect(good.server).toEqual({ name: 'good-fixture', version: '1.0.0' });
    expect(good.checks.map((c) => c.id)).toEqual([
      'CONNECT',
      'META',
      'PORT',
      'ALL-01',
      'ALL-02',
      'ALL-03',
      'ALL-04',
      'ALL-05',
      'ALL-07',
      'ALL-08',
      'ALL-09',
      'ALL-10',
    ]);
    expect(good.checks.every((c) => !c.skipped)).toBe(true);
  });
  it.each([
    'META',
    'PORT',
    'ALL-01',
    'ALL-02',
    'ALL-03',
    'ALL-04',
    'ALL-05',
    'ALL-07',
    'ALL-08',
    'ALL-09',
    'ALL-10',
  ])('%s passes', (id) => passes(id));
  it('ALL-05 walked every page of every list', () => {
    expect(check(good, 'ALL-05').details).toEqual(
      expect.arrayContaining([
        'tools/list: 5 item(s) in 3 page(s)',
        'resources/list: 3 item(s) in 2 page(s)',
      ]),
    );
  });
  it("ALL-04 closed stdin mid-call, saw the call's helper process, and the server exited with code 0", () => {
    const details = check(good, 'ALL-04').details;
    expect(details).toContain('closed stdin with slow in flight');
    expect(details).toContain('1 descendant process(es) seen before EOF');
    expect(details.some((d) => /^exited with code 0 \d+ ms after stdin EOF$/.test(d))).toBe(true);
  });
});

describe('checkServer on the bad fixture fails each check for its planted fault', () => {
  it('connects, but is not ok', () => {
    expect(check(bad, 'CONNECT').ok).toBe(true);
    expect(bad.ok).toBe(false);
  });
  it('META: missing title and annotations', () =>
    failsWith(
      'META',
      /^echo: no title$/,
      /^echo: annotation destructiveHint missing$/,
      /^call_api: annotation readOnlyHint missing$/,
    ));
  it('ALL-01: the "credentials loaded" stdout line, on every connection', () => {
    failsWith(
      'ALL-01',
      /\[main\] stdout line is not JSON-RPC: "credentials loaded"/,
      /\[debug-env\] .*credentials loaded/,
    );
  });
  it('ALL-02: unknown key accepted, crash on NUL detected and survived', () =>
    failsWith(
      'ALL-02',
      /^echo: unknown extra key "harness_unknown_key": accepted/,
      /^echo: text: string with \\u0000: no answer/,
      /^echo: after text: string with \\u0000: process exited \(code 3\)/,
    ));
  it('ALL-03: token in an error result, in debug stderr and in the audit log — never printed', () => {
    failsWith(
      'ALL-03',
      /secret TES…\(12 chars\) in stdout line \d+ \(response to tools\/call call_api\)/,
      /\[debug-env\] secret .* in stderr line \d+: "bad-server debug: token=\*\*\*"/,
      /in audit log line 1/,
    );
    expect(formatReport(bad)).not.toContain(SECRET);
  });
  it('ALL-04: ignores stdin EOF and leaves its helper process behind', () =>
    failsWith(
      'ALL-04',
      /still running 2000 ms after stdin EOF/,
      /left 1 child process\(es\) running: \d+ .*setTimeout/,
    ));
  it('ALL-05: a made-up cursor is accepted', () =>
    failsWith('ALL-05', /tools\/list: invalid cursor accepted/));
  it('ALL-07: the blocking slow call holds up tools/list', () =>
    failsWith('ALL-07', /tools\/list answered only after slow did: the slow call held it up/));
  it('ALL-08: tool list and answers differ between eras', () =>
    failsWith('ALL-08', /^legacy_only: listed only in the legacy era$/, /^whoami: answers differ/));
  it('ALL-09: requests whose params are not an object go unanswered, in both eras', () =>
    failsWith(
      'ALL-09',
      /^\[legacy\] tools\/call params "x": no answer/,
      /^\[modern\] \d+ of \d+ request\(s\) got no answer$/,
      /^\[legacy\] \d+ of \d+ request\(s\) got no answer$/,
    ));
  it('ALL-10: an echoed id holding U+2028 reaches stdout raw', () =>
    failsWith('ALL-10', /^\[line separators\] stdout line holds a raw U\+2028\/U\+2029/));
});

describe('checkServer options', () => {
  it('skips what it is told to, and what it cannot run, without failing', async () => {
    const report = await checkServer(
      { command: process.execPath, args: [fixture('good-server.mjs')] },
      { skip: ['ALL-01', 'ALL-04', 'ALL-05', 'ALL-08'], destructive: false },
    );
    expect(report.ok, formatReport(report)).toBe(true);
    const skipped = report.checks.filter((c) => c.skipped).map((c) => c.id);
    // ALL-03 has no secrets and ALL-07 no slow call to work with.
    expect(skipped).toEqual(['ALL-01', 'ALL-03', 'ALL-04', 'ALL-05', 'ALL-07', 'ALL-08']);
    // destructive: false — the one write tool is left alone.
    expect(check(report, 'ALL-02').details).toContain(
      'save_note: not read-only; skipped (destructive calls not allowed)',
    );
  }, 30_000);
  it('reports a server that cannot start as a failed CONNECT, with its stderr (secrets masked)', async () => {
    const report = await checkServer(
      {
        command: process.execPath,
        args: ['-e', `console.error("boom: bad token ${SECRET}"); process.exit(2)`],
      },
      { secrets: [SECRET] },
    );
    expect(report.ok).toBe(false);
    expect(report.checks).toHaveLength(1);
    expect(report.checks[0]?.id).toBe('CONNECT');
    expect(report.checks[0]?.details.join('\n')).toContain('boom: bad token ***');
  });
});
