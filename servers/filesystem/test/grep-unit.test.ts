/** Unit tests of content matching: binary sniffing, context, rendering, and the guarded regex matcher. */
import { describe, expect, it } from 'vitest';
import { buildMatches, clipLine, looksBinary, renderFileMatches, splitLines } from '../src/grep.js';
import { compilePattern, literalMatcher, MAX_REGEX_LINE, workerMatcher } from '../src/line-matcher.js';

const far = () => performance.now() + 10_000;

describe('text helpers', () => {
  it('calls bytes binary when a NUL appears in the sniffed prefix only', () => {
    expect(looksBinary(Buffer.from('plain text\n'))).toBe(false);
    expect(looksBinary(Buffer.from('PNG\0data'))).toBe(true);
    const lateNul = Buffer.concat([Buffer.alloc(9000, 0x61), Buffer.from([0])]);
    expect(looksBinary(lateNul)).toBe(false);
  });

  it('splits LF and CRLF lines without a phantom last line', () => {
    expect(splitLines('a\r\nb\nc\n')).toEqual(['a', 'b', 'c']);
    expect(splitLines('a')).toEqual(['a']);
    expect(splitLines('')).toEqual(['']);
  });

  it('cuts long lines around the match and marks the cuts', () => {
    const line = `${'x'.repeat(1000)}NEEDLE${'y'.repeat(1000)}`;
    const clipped = clipLine(line, 1000, 6, 100);
    expect(clipped).toContain('NEEDLE');
    expect(clipped.startsWith('…')).toBe(true);
    expect(clipped.endsWith('…')).toBe(true);
    expect(clipped.length).toBeLessThanOrEqual(102);
  });

  it('builds matches with context and renders them grep-style, sharing overlapping context', () => {
    const lines = ['one', 'two match', 'three', 'four match', 'five', 'six', 'seven', 'eight match'];
    const matches = buildMatches(
      lines,
      [
        { index: 1, column: 4, length: 5 },
        { index: 3, column: 5, length: 5 },
        { index: 7, column: 6, length: 5 },
      ],
      1,
    );
    expect(matches[0]).toEqual({ line: 2, column: 5, text: 'two match', before: ['one'], after: ['three'] });
    expect(matches[2]?.after).toEqual([]);
    expect(renderFileMatches(matches)).toEqual([
      '1-one',
      '2:two match',
      '3-three',
      '4:four match',
      '5-five',
      '--',
      '7-seven',
      '8:eight match',
    ]);
  });
});

describe('line matchers', () => {
  it('treats literal patterns literally, case-insensitively by default', async () => {
    const m = literalMatcher(compilePattern('a.b(c', { regex: false, caseSensitive: false }));
    const out = await m.match(['xa.b(cx', 'axb(c', 'A.B(C'], 10, far());
    expect(out.hits.map((h) => [h.index, h.column])).toEqual([
      [0, 1],
      [2, 0],
    ]);
    const cs = literalMatcher(compilePattern('A.B', { regex: false, caseSensitive: true }));
    expect((await cs.match(['a.b', 'A.B'], 10, far())).hits.map((h) => h.index)).toEqual([1]);
  });

  it('runs regular expressions in a worker and reports first-match columns', async () => {
    const m = workerMatcher(compilePattern('fo+\\d', { regex: true, caseSensitive: true }));
    try {
      const out = await m.match(['nothing', 'xx foo1', 'fo2 foo3', 'FOO4'], 10, far());
      expect(out).toEqual({
        hits: [
          { index: 1, column: 3, length: 4 },
          { index: 2, column: 0, length: 3 },
        ],
        timedOut: false,
      });
      // The limit bounds the hits.
      expect((await m.match(['fo1', 'fo2', 'fo3'], 2, far())).hits).toHaveLength(2);
    } finally {
      await m.close();
    }
  });

  it('stops a catastrophically backtracking regex at the deadline, keeping the main thread free', async () => {
    const m = workerMatcher(compilePattern('(a|aa)+\\1$', { regex: true, caseSensitive: true }));
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    const started = performance.now();
    try {
      const out = await m.match([`${'a'.repeat(60)}b`], 10, performance.now() + 300);
      const elapsed = performance.now() - started;
      expect(out.timedOut).toBe(true);
      expect(elapsed).toBeLessThan(2000);
      expect(ticks).toBeGreaterThan(10); // the event loop kept running meanwhile
      // Once timed out the matcher stays unusable (the search stops instead of retrying forever).
      expect((await m.match(['a'], 10, far())).timedOut).toBe(true);
    } finally {
      clearInterval(timer);
      await m.close();
    }
  });

  it('matches only the first part of over-long lines (the line-length cap)', async () => {
    const m = workerMatcher(compilePattern('TAIL', { regex: true, caseSensitive: true }));
    try {
      const long = `${'x'.repeat(MAX_REGEX_LINE)}TAIL`;
      expect((await m.match([long, 'TAIL'], 10, far())).hits.map((h) => h.index)).toEqual([1]);
    } finally {
      await m.close();
    }
  });

  it('marks a hit on a line longer than the cap: $ matched at the cut (breaker finding 4)', async () => {
    const m = workerMatcher(compilePattern('^a+$', { regex: true, caseSensitive: true }));
    try {
      const lines = [`${'a'.repeat(50_000)}ZZZ`, 'aaa'];
      const { hits } = await m.match(lines, 10, far());
      expect(hits).toEqual([
        { index: 0, column: 0, length: MAX_REGEX_LINE, lineCut: true },
        { index: 1, column: 0, length: 3 },
      ]);
      const matches = buildMatches(lines, hits, 0);
      expect(matches[0]).toMatchObject({ lineTruncated: true, lineLength: 50_003 });
      expect(matches[1]).not.toHaveProperty('lineTruncated');
      const text = renderFileMatches(matches);
      expect(text[0]).toContain('[line cut: the regex saw only its first 16384 of 50003 characters');
      expect(text[1]).toBe('2:aaa');
    } finally {
      await m.close();
    }
  });

  it('refuses an invalid regular expression with a SyntaxError', () => {
    expect(() => compilePattern('(unclosed', { regex: true, caseSensitive: false })).toThrow(SyntaxError);
  });
});
