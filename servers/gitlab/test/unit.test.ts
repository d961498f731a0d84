/** Domain code without MCP: project ids and paths, file path encoding, the scope, file text reading. */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { fileText } from '../src/files.js';
import { isSearchRequest } from '../src/gitlab/client.js';
import { filePathSegment, isProjectId, projectPath } from '../src/names.js';
import { diffRows, lineCode } from '../src/review/position.js';
import { ProjectScope } from '../src/scope.js';

describe('project ids', () => {
  it('accepts digits and group/…/project paths, refuses dot and empty segments', () => {
    for (const ok of ['42', 'grp/proj', 'grp/sub/proj', 'a.b/c_d-e']) expect(isProjectId(ok), ok).toBe(true);
    for (const bad of ['proj', '../../user', 'grp/..', 'grp//proj', '-1', 'grp/proj/', '/grp/proj'])
      expect(isProjectId(bad), bad).toBe(false);
  });

  it('encodes a path whole and leaves a numeric id as is', () => {
    expect(projectPath('42')).toBe('/projects/42');
    expect(projectPath('grp/sub/proj')).toBe('/projects/grp%2Fsub%2Fproj');
  });

  it('encodes file paths whole and refuses traversal', () => {
    expect(filePathSegment('dir/a b#1?.md')).toBe('dir%2Fa%20b%231%3F.md');
    expect(filePathSegment('docs/')).toBe('docs');
    expect(() => filePathSegment('../../../../user')).toThrow(/file_path/);
    expect(() => filePathSegment('a//b')).toThrow(/empty path segment/);
  });
});

describe('ProjectScope', () => {
  const scope = ProjectScope.parse('grp/proj, Other/*');
  it('allows exact projects and a group with its subgroups, case-insensitively', () => {
    expect(scope.allows('GRP/Proj')).toBe(true);
    expect(scope.allows('other/sub/deep')).toBe(true);
    expect(scope.allows('grp/proj2')).toBe(false);
    expect(scope.allows('otherx/p')).toBe(false);
  });
  it('refuses numeric ids and outside paths with the --repos wording', () => {
    expect(() => scope.check('44')).toThrow(/name the project by its path/);
    expect(() => scope.check('upstream/private')).toThrow(
      'upstream/private is outside the projects this server may access (--projects grp/proj,Other/*). This limit is set by the operator and cannot be changed by a tool call; work within the allowed projects.',
    );
  });
  it('refuses malformed entries', () => {
    for (const bad of ['', 'grp', 'grp/../x', '*/proj'])
      expect(() => ProjectScope.parse(bad), bad).toThrow(/--projects/);
  });
});

describe('fileText', () => {
  it('reports NUL-bearing and invalid UTF-8 content as binary', () => {
    expect(fileText(Buffer.from([0x89, 0x50, 0, 1]), 0, 100)).toEqual({ binary: true, size: 4 });
    expect(fileText(Buffer.from([0xff, 0xfe, 0x41]), 0, 100)).toEqual({ binary: true, size: 3 });
  });
  it('cuts at the budget on a character boundary and resumes from an offset inside a character', () => {
    const bytes = Buffer.from('aé€b', 'utf8'); // 1 + 2 + 3 + 1 bytes
    const first = fileText(bytes, 0, 4);
    expect(first).toMatchObject({ binary: false, text: 'aé', start: 0, end: 3, size: 7 });
    expect(fileText(bytes, 4, 100)).toMatchObject({ text: 'b', start: 6, end: 7 });
  });
});

describe('isSearchRequest', () => {
  it('counts project search and the search API as searches (--search-interval), nothing else', () => {
    expect(isSearchRequest('/projects', { search: 'proj', page: 1 })).toBe(true);
    expect(isSearchRequest('/search', { scope: 'projects', search: 'x' })).toBe(true);
    expect(isSearchRequest('/groups/grp%2Fsub/search', { search: 'x' })).toBe(true);
    expect(isSearchRequest('/projects/42/search', { search: 'x' })).toBe(true);
    expect(isSearchRequest('/projects', { membership: true })).toBe(false);
    expect(isSearchRequest('/projects', { search: '' })).toBe(false);
    expect(isSearchRequest('/projects/grp%2Fproj/issues', { search: 'bug' })).toBe(false);
  });
});

describe('diff rows and line codes (multi-line comments)', () => {
  it('numbers rows as GitLab’s diff parser does: an added line keeps the old counter, a removed line the new one', () => {
    const patch = '@@ -3,4 +3,4 @@\n ctx3\n-old4\n+new4\n ctx5\n\\ No newline at end of file\n';
    expect(diffRows(patch)).toEqual([
      { kind: ' ', old: 3, new: 3, hunk: 0 },
      { kind: '-', old: 4, new: 4, hunk: 0 },
      { kind: '+', old: 5, new: 4, hunk: 0 },
      { kind: ' ', old: 5, new: 5, hunk: 0 },
    ]);
    // The docs' example: an added line 5 → <sha1 of the path>_5_5.
    const sha = createHash('sha1').update('README.md').digest('hex');
    expect(lineCode('README.md', { kind: '+', old: 5, new: 5, hunk: 0 })).toBe(`${sha}_5_5`);
    expect(diffRows('@@ -0,0 +1,2 @@\n+a\n+b')).toEqual([
      { kind: '+', old: 0, new: 1, hunk: 0 },
      { kind: '+', old: 0, new: 2, hunk: 0 },
    ]);
  });
});

describe('group search under --projects (ProjectScope.allowsGroup)', () => {
  it('allows a group inside a group/* entry or holding an entry; refuses an unrelated one', () => {
    const scope = ProjectScope.parse('grp/sub/*,other/proj');
    for (const ok of ['grp/sub', 'grp/sub/deeper', 'grp', 'GRP', 'other'])
      expect(scope.allowsGroup(ok), ok).toBe(true);
    for (const bad of ['grpx', 'grp/subx', 'other/proj', 'upstream', 'other/proj2'])
      expect(scope.allowsGroup(bad), bad).toBe(false);
    expect(() => scope.checkGroup('42')).toThrow(/name the group by its path/);
    expect(() => scope.checkGroup('upstream')).toThrow(/holds none of the projects/);
  });
});
