/** Unit tests of the server's pure parts: name rules, Link-header pagination, and the OpenAPI nullable translation. */
import { linkPageInfo as pageInfo, singular } from '@refmcp/shared';
import { describe, expect, it } from 'vitest';
import { hasGitSegment, isValidBranchName, OWNER_PATTERN, REPO_PATTERN } from '../src/names.js';
import { parseContentsUri } from '../src/resources.js';

describe('names', () => {
  it('branches follow git check-ref-format; "&" and "=" are allowed (and encoded later)', () => {
    for (const ok of ['main', 'feature/x', 'main&per_page=100', 'v1.2', 'a-b_c'])
      expect(isValidBranchName(ok), ok).toBe(true);
    for (const bad of [
      '',
      '@',
      'a..b',
      'a b',
      'a~1',
      'a^',
      'a:b',
      'a?',
      'a*',
      'a[',
      'a\\b',
      '/a',
      'a/',
      'a//b',
      'a.lock',
      'a.',
      '.a',
      'a/.b',
      'a@{1}',
      'x\u0000',
    ])
      expect(isValidBranchName(bad), bad).toBe(false);
  });

  it('paths to write may not have a .git segment, in any spelling a checkout reads as .git', () => {
    for (const bad of [
      '.git/config',
      'a/.git/hooks/pre-commit',
      '.GIT/config',
      '.git',
      '.git./config',
      '.git /config',
      'git~1/config',
      '.g\u200Cit/config',
      '.git::$INDEX_ALLOCATION/config',
      'a\\.git\\config',
    ])
      expect(hasGitSegment(bad), bad).toBe(true);
    for (const ok of [
      '.github/workflows/ci.yml',
      '.gitignore',
      'a/.gitmodules',
      'git/config',
      'x.git/y',
      'my.git',
    ])
      expect(hasGitSegment(ok), ok).toBe(false);
  });

  it('owners and repositories', () => {
    expect(OWNER_PATTERN.test('octo-cat')).toBe(true);
    expect(OWNER_PATTERN.test('-x')).toBe(false);
    expect(REPO_PATTERN.test('my.repo_1')).toBe(true);
    expect(REPO_PATTERN.test('..')).toBe(false);
    expect(REPO_PATTERN.test('a/b')).toBe(false);
  });
});

describe('pageInfo', () => {
  it('reads next and last from a Link header', () => {
    const link =
      '<https://api.github.com/repos/a/b/issues?page=3&per_page=30>; rel="next", <https://api.github.com/repos/a/b/issues?page=5&per_page=30>; rel="last"';
    expect(pageInfo(link, 2, 30)).toEqual({ page: 2, perPage: 30, hasMore: true, nextPage: 3, lastPage: 5 });
    expect(pageInfo(undefined, 1, 30)).toEqual({ page: 1, perPage: 30, hasMore: false });
  });
});

describe('singular', () => {
  it('makes page lines read right for one item', () => {
    expect(['issues', 'entries', 'matches', 'pull requests', 'review comments'].map(singular)).toEqual([
      'issue',
      'entry',
      'match',
      'pull request',
      'review comment',
    ]);
  });
});

describe('repo:// URIs', () => {
  it('decode each segment and refuse dot segments', () => {
    expect(parseContentsUri('repo://acme/demo/contents/a%20b/c%23d')).toEqual({
      owner: 'acme',
      repo: 'demo',
      path: 'a b/c#d',
    });
    expect(parseContentsUri('repo://acme/demo/contents')).toEqual({ owner: 'acme', repo: 'demo', path: '' });
    expect(() => parseContentsUri('repo://acme/demo/contents/a/%2e%2e/b')).toThrow(/not allowed/);
  });
});
