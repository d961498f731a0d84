import { describe, expect, it } from 'vitest';
import { applyEdits, EditError, lineEndingsOf, unifiedDiff } from '../src/edit.js';

const edit = (oldText: string, newText: string) => ({ oldText, newText });

describe('applyEdits', () => {
  it("FS-07: replacement text is literal ($$, $&, $', $1 are not patterns)", () => {
    const out = applyEdits('price: PLACEHOLDER\n', [edit('PLACEHOLDER', "$$100 $& $' $1")]);
    expect(out.content).toBe("price: $$100 $& $' $1\n");
    expect(out.applied).toEqual([{ index: 0, line: 1, match: 'exact' }]);
  });

  it('FS-07: LF oldText matches a CRLF file and the file keeps CRLF', () => {
    const out = applyEdits('one\r\ntwo\r\nthree\r\n', [edit('one\ntwo\n', 'uno\ndos\n')]);
    expect(out.content).toBe('uno\r\ndos\r\nthree\r\n');
    expect(out.applied[0]?.match).toBe('line-endings');
    expect(out.lineEndings).toBe('crlf');
  });

  it('FS-07: an exact single-line match in a CRLF file gets CRLF newText', () => {
    const out = applyEdits('a\r\nb\r\n', [edit('b', 'b1\nb2')]);
    expect(out.content).toBe('a\r\nb1\r\nb2\r\n');
  });

  it('refuses an oldText that matches more than once, saying where', () => {
    const run = () => applyEdits('x = 1\ny = 2\nx = 1\n', [edit('x = 1', 'x = 3')]);
    expect(run).toThrow(EditError);
    expect(run).toThrow(/matches 2 times .*lines 1, 3.*exactly once/s);
  });

  it('counts overlapping occurrences as ambiguous', () => {
    expect(() => applyEdits('aaa', [edit('aa', 'b')])).toThrow(/matches 2 times/);
  });

  it('applies a match that differs only in trailing whitespace', () => {
    const out = applyEdits('def f():  \n    return 1\t\n', [
      edit('def f():\n    return 1\n', 'def f():\n    return 2\n'),
    ]);
    expect(out.content).toBe('def f():\n    return 2\n');
    expect(out.applied[0]?.match).toBe('trailing-whitespace');
  });

  it('does not apply a match that needs indentation ignored, and quotes the real lines', () => {
    const file = 'class A:\n    def f(self):\n        return 1\n';
    const run = () => applyEdits(file, [edit('def f(self):\n    return 1', 'def f(self):\n    return 2')]);
    expect(run).toThrow(/at line 2 if indentation is ignored.* {4}def f\(self\):\n {8}return 1/s);
  });

  it('says when the text is not there at all', () => {
    expect(() => applyEdits('alpha\nbeta\n', [edit('gamma', 'delta')])).toThrow(
      /not found.*None of its lines/s,
    );
  });

  it('refuses an empty oldText', () => {
    expect(() => applyEdits('abc', [edit('', 'x')])).toThrow(/oldText is empty/);
  });

  it('applies edits in order, each to the result of the previous, and names the failing one', () => {
    const out = applyEdits('a b c', [edit('a', 'x'), edit('x b', 'y')]);
    expect(out.content).toBe('y c');
    try {
      applyEdits('a b c', [edit('a', 'x'), edit('zzz', 'y')]);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(EditError);
      expect((error as EditError).index).toBe(1);
      expect((error as Error).message).toMatch(/^edits\[1\]/);
    }
  });
});

describe('lineEndingsOf', () => {
  it('tells LF, CRLF, mixed and none apart', () => {
    expect(lineEndingsOf('a\nb\n')).toBe('lf');
    expect(lineEndingsOf('a\r\nb\r\n')).toBe('crlf');
    expect(lineEndingsOf('a\r\nb\n')).toBe('mixed');
    expect(lineEndingsOf('abc')).toBe('none');
  });
});

describe('unifiedDiff', () => {
  it('is a unified diff in a fence longer than any backtick run inside', () => {
    const diff = unifiedDiff('f.md', 'x\n```\n', 'y\n```\n');
    expect(diff.startsWith('````diff\n')).toBe(true);
    expect(diff).toContain('--- f.md\toriginal');
    expect(diff).toContain('-x\n+y');
    expect(diff.endsWith('````')).toBe(true);
  });
});
