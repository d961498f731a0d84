/** The HTTP flags, token reading, base-URL prefixes and integer flags every API server shares. */
import { describe, expect, it } from 'vitest';
import { intFlag } from '../src/server/int-flag.js';
import {
  DEFAULT_HTTP_POLICY,
  HTTP_OPTIONS,
  httpOptionsHelp,
  httpPolicyFromFlags,
  joinUrl,
  parseBaseUrl,
  readToken,
} from '../src/upstream/index.js';

describe('HTTP flags', () => {
  it('help shows the policy defaults and the server’s words', () => {
    const help = httpOptionsHelp({ service: 'GitLab', writeNote: 'GitLab guidance' });
    expect(help).toContain(
      `--timeout MS             time limit of one GitLab request in ms (default ${DEFAULT_HTTP_POLICY.timeoutMs})`,
    );
    expect(help).toContain(`(default ${DEFAULT_HTTP_POLICY.maxRetryWaitMs})`);
    expect(help).toContain(`(default ${DEFAULT_HTTP_POLICY.minWriteIntervalMs}, GitLab guidance)`);
    expect(
      help.endsWith(`least time between two searches (default ${DEFAULT_HTTP_POLICY.minSearchIntervalMs})`),
    ).toBe(true);
    for (const name of Object.keys(HTTP_OPTIONS)) expect(help).toContain(`--${name} MS`);
  });

  it('sets the policy from the flags; a long --rate-limit-wait widens the call budget', () => {
    expect(httpPolicyFromFlags({})).toEqual({ ...DEFAULT_HTTP_POLICY });
    const policy = httpPolicyFromFlags({
      timeout: '1500',
      'rate-limit-wait': '120000',
      'write-interval': '0',
      'search-interval': '250',
    });
    expect(policy).toMatchObject({
      timeoutMs: 1500,
      maxRetryWaitMs: 120_000,
      budgetMs: 120_000,
      minWriteIntervalMs: 0,
      minSearchIntervalMs: 250,
    });
  });

  it('refuses what is not a whole number of milliseconds, and a zero timeout', () => {
    expect(() => httpPolicyFromFlags({ timeout: '0' })).toThrow(
      '--timeout: expected a whole number of milliseconds ≥ 1, got "0"',
    );
    expect(() => httpPolicyFromFlags({ 'rate-limit-wait': '1.5' })).toThrow(
      /--rate-limit-wait: expected a whole number/,
    );
    expect(() => httpPolicyFromFlags({ 'write-interval': '-1' })).toThrow(/≥ 0, got "-1"/);
  });
});

describe('readToken', () => {
  const names = ['GITLAB_TOKEN', 'GITLAB_PERSONAL_ACCESS_TOKEN'];
  it('reads the first set variable, trimmed; none gives undefined', () => {
    expect(readToken({ GITLAB_TOKEN: ' glpat-abc \n' }, names)).toBe('glpat-abc');
    expect(readToken({ GITLAB_TOKEN: '', GITLAB_PERSONAL_ACCESS_TOKEN: 'b' }, names)).toBe('b');
    expect(readToken({}, names)).toBeUndefined();
  });

  it('refuses header-breaking characters, naming the variable and never the value', () => {
    for (const bad of ['a\r\nx-injected: 1', 'a b', 'a\u0000b', 'a\u007fb']) {
      const run = () => readToken({ GITLAB_PERSONAL_ACCESS_TOKEN: bad }, names);
      expect(run).toThrow('GITLAB_PERSONAL_ACCESS_TOKEN contains whitespace or control characters');
    }
  });
});

describe('parseBaseUrl path prefixes (GitLab /api/v4, self-hosted /gitlab/api/v4)', () => {
  it('keeps the prefix and joins paths under it', () => {
    const gitlab = parseBaseUrl('https://gitlab.com/api/v4/');
    expect(gitlab.href).toBe('https://gitlab.com/api/v4');
    expect(joinUrl(gitlab, '/projects/group%2Fproject').href).toBe(
      'https://gitlab.com/api/v4/projects/group%2Fproject',
    );
    const hosted = parseBaseUrl('https://git.example.org/gitlab/api/v4', 'GITLAB_API_URL');
    expect(joinUrl(hosted, '/user').href).toBe('https://git.example.org/gitlab/api/v4/user');
    expect(joinUrl(parseBaseUrl('http://127.0.0.1:9000/gitlab/api/v4//'), '/x').href).toBe(
      'http://127.0.0.1:9000/gitlab/api/v4/x',
    );
    expect(() => parseBaseUrl('http://git.example.org/gitlab/api/v4', 'GITLAB_API_URL')).toThrow(
      /GITLAB_API_URL: plain http is allowed only for loopback/,
    );
  });
});

describe('intFlag', () => {
  it('returns the fallback when absent and the number when valid', () => {
    expect(intFlag({}, 'max-rows', 1000)).toBe(1000);
    expect(intFlag({ 'max-rows': '7' }, 'max-rows', 1000)).toBe(7);
    expect(intFlag({ 'busy-timeout': '0' }, 'busy-timeout', 5, { min: 0 })).toBe(0);
  });

  it('words the error by its bounds', () => {
    expect(() => intFlag({ n: '0' }, 'n', 1)).toThrow('--n: expected a positive integer, got "0"');
    expect(() => intFlag({ n: '1e3x' }, 'n', 1, { min: 100 })).toThrow(
      '--n: expected an integer ≥ 100, got "1e3x"',
    );
    expect(() => intFlag({ n: '101' }, 'n', 1, { max: 100 })).toThrow(
      '--n: expected an integer from 1 to 100, got "101"',
    );
    expect(() => intFlag({ n: 'x' }, 'n', 1, { min: 0, unit: 'ms' })).toThrow(
      '--n: expected a whole number of milliseconds ≥ 0, got "x"',
    );
  });
});
