import { describe, expect, it } from 'vitest';
import { num, oneLine, seconds, table } from '../src/insight/listing.js';

describe('insight listing', () => {
  it('puts one header line over |-separated rows', () => {
    expect(table(['a', 'b'], [[1, 'x|y']])).toBe('a|b\n1|x|y');
  });

  it('flattens a statement and cuts it at a word boundary with …', () => {
    expect(oneLine('SELECT 1\n  FROM t', 40)).toEqual({ text: 'SELECT 1 FROM t', cut: false });
    const { text, cut } = oneLine(`SELECT ${'abc, '.repeat(50)}x FROM t`, 40);
    expect(cut).toBe(true);
    expect(text).toBe('SELECT abc, abc, abc, abc, abc, abc,…');
  });

  it('never leaves half a surrogate pair at the cut', () => {
    const { text } = oneLine(`${'a'.repeat(9)}😀😀😀`, 10);
    expect(text).toBe(`${'a'.repeat(9)}…`);
  });

  it('rounds cells and drops fractional seconds', () => {
    expect([num(302.4), num(16.3784), num(0.5)]).toEqual(['302', '16.38', '0.5']);
    expect(seconds('2026-12-07 18:53:53.464617+00')).toBe('2026-12-07 18:53:53+00');
    expect(seconds(null)).toBe('unknown');
  });
});
