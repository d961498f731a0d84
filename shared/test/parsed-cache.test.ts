// The document worker's cache of parsed documents (documents/parsed-cache.ts, issue 30): keyed by
// content, bounded in entries and in bytes, least recently used evicted and disposed first, a
// failed parse and a document over the whole budget never kept.
import { describe, expect, it } from 'vitest';
import { contentKey, ParsedCache } from '../src/documents/parsed-cache.js';

function tracked(maxEntries: number, maxBytes: number) {
  const cache = new ParsedCache<string>(maxEntries, maxBytes);
  const opened: string[] = [];
  const disposed: string[] = [];
  const get = (key: string, bytes: number) =>
    cache.get(
      key,
      bytes,
      async () => {
        opened.push(key);
        return `parsed ${key}`;
      },
      (value) => disposed.push(value),
    );
  return { cache, get, opened, disposed };
}

describe('ParsedCache', () => {
  it('keys by content: the same bytes give one key, different bytes another', () => {
    const a = new TextEncoder().encode('%PDF-1.7 a');
    expect(contentKey(a)).toBe(contentKey(new Uint8Array(a)));
    expect(contentKey(a)).not.toBe(contentKey(new TextEncoder().encode('%PDF-1.7 b')));
  });

  it('reuses a held document and parses anything else', async () => {
    const { get, opened } = tracked(4, 1000);
    expect(await get('a', 10)).toEqual({ value: 'parsed a', reused: false });
    expect(await get('a', 10)).toEqual({ value: 'parsed a', reused: true });
    expect(await get('b', 10)).toEqual({ value: 'parsed b', reused: false });
    expect(opened).toEqual(['a', 'b']);
  });

  it('evicts the least recently used past the entry bound, and disposes it', async () => {
    const { cache, get, disposed } = tracked(2, 1000);
    await get('a', 1);
    await get('b', 1);
    await get('a', 1); // a is now the most recently used
    await get('c', 1);
    await Promise.resolve();
    expect(disposed).toEqual(['parsed b']);
    expect(cache.size).toBe(2);
    expect((await get('a', 1)).reused).toBe(true);
    expect((await get('b', 1)).reused).toBe(false);
  });

  it('evicts by bytes before parsing, and never keeps a document over the whole budget', async () => {
    const { cache, get, disposed } = tracked(4, 100);
    await get('a', 60);
    await get('b', 50); // 110 > 100: a goes first
    await Promise.resolve();
    expect(disposed).toEqual(['parsed a']);
    expect((await get('huge', 101)).reused).toBe(false);
    expect((await get('huge', 101)).reused).toBe(false);
    expect(cache.size).toBe(1);
    expect(cache.keeps(101)).toBe(false);
  });

  it('does not keep a parse that failed', async () => {
    const cache = new ParsedCache<string>(4, 1000);
    const fail = () => Promise.reject(new Error('corrupt'));
    await expect(cache.get('bad', 10, fail, () => {})).rejects.toThrow('corrupt');
    expect(cache.size).toBe(0);
    expect(
      await cache.get(
        'bad',
        10,
        async () => 'fixed',
        () => {},
      ),
    ).toEqual({ value: 'fixed', reused: false });
  });
});
