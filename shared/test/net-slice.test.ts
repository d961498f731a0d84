/** sliceText (paging Markdown by UTF-8 bytes) and the network-policy flags. */
import { describe, expect, it } from 'vitest';
import {
  NETWORK_OPTIONS,
  NetworkPolicy,
  networkOptionsHelp,
  networkPolicyFromFlags,
  sliceText,
} from '../src/net/index.js';
import { ConfigError, ToolError } from '../src/server/errors.js';

describe('sliceText', () => {
  it('returns everything within the budget, untruncated', () => {
    expect(sliceText('abc', 0, 10)).toEqual({
      text: 'abc',
      offset: 0,
      nextOffset: undefined,
      truncated: false,
      totalChars: 3,
    });
    expect(sliceText('', 0, 10)).toMatchObject({ text: '', truncated: false, totalChars: 0 });
  });

  it('counts UTF-8 bytes and never splits a character or a surrogate pair', () => {
    const text = 'é𝄞é𝄞'; // 2 + 4 + 2 + 4 bytes; 𝄞 is two UTF-16 code units
    expect(sliceText(text, 0, 5)).toMatchObject({ text: 'é', nextOffset: 1, truncated: true });
    expect(sliceText(text, 0, 6)).toMatchObject({ text: 'é𝄞', nextOffset: 3 });
    expect(sliceText(text, 3, 100)).toMatchObject({ text: 'é𝄞', offset: 3, truncated: false });
    // An offset inside a surrogate pair moves back onto the character.
    expect(sliceText(text, 2, 4)).toMatchObject({ text: '𝄞', offset: 1, nextOffset: 3 });
  });

  it('always moves on by at least one character, even under a tiny budget', () => {
    expect(sliceText('𝄞x', 0, 1)).toMatchObject({ text: '𝄞', nextOffset: 2 });
  });

  it('cuts after the last line break when that keeps at least half of the slice', () => {
    const text = 'aaaa\nbbbbbbbbbb';
    expect(sliceText(text, 0, 8)).toMatchObject({ text: 'aaaa\n', nextOffset: 5 });
    expect(sliceText('a\nbbbbbbbbbb', 0, 8)).toMatchObject({ text: 'a\nbbbbbb', nextOffset: 8 });
  });

  it('refuses an offset outside the text', () => {
    expect(() => sliceText('abc', 4, 10)).toThrow(ToolError);
    expect(() => sliceText('abc', -1, 10)).toThrow(/offset -1 is outside the page \(0 to 3 characters\)/);
  });
});

describe('network-policy flags', () => {
  it('declares the flags the browser has always taken', () => {
    expect(Object.keys(NETWORK_OPTIONS)).toEqual([
      'allowed-origins',
      'blocked-origins',
      'allowed-origins-only',
    ]);
    expect(networkOptionsHelp('the browser')).toContain(
      '--allowed-origins LIST  origins the browser may reach',
    );
  });

  it('builds a policy: http(s) only by default, lists split on commas and semicolons', async () => {
    const policy = networkPolicyFromFlags({
      'allowed-origins': ['http://127.0.0.1:8080;example.internal', 'a.test'],
      'blocked-origins': 'evil.example',
      'allowed-origins-only': true,
    });
    expect(policy).toBeInstanceOf(NetworkPolicy);
    expect(policy.schemes).toEqual(['http', 'https']);
    expect((await policy.checkUrl('http://127.0.0.1:8080/')).ok).toBe(true);
    expect(await policy.checkUrl('https://evil.example/')).toMatchObject({
      ok: false,
      rule: 'blocked-origins',
    });
    expect(await policy.checkUrl('http://127.0.0.1:9/')).toMatchObject({
      ok: false,
      rule: 'allowed-origins-only',
    });
    expect(networkPolicyFromFlags({}, { schemes: ['http', 'https', 'file'] }).schemes).toContain('file');
  });

  it('names the flag and the entry of a bad list', () => {
    expect(() => networkPolicyFromFlags({ 'blocked-origins': ['ok.example,http://x/path'] })).toThrow(
      ConfigError,
    );
    expect(() => networkPolicyFromFlags({ 'allowed-origins': ['10.0.0.0/99'] })).toThrow(
      /^--allowed-origins: "10\.0\.0\.0\/99" is not a valid network/,
    );
  });
});
