import { describe, expect, it } from 'vitest';
import { homeTrashDir, trashInfo } from '../src/paths/index.js';

describe('freedesktop trash info (Trash spec 1.0)', () => {
  it('escapes each byte outside RFC 2396 unreserved and "/", raw bytes of a non-UTF-8 name included', () => {
    const date = new Date(2026, 0, 2, 3, 4, 5);
    expect(trashInfo('/data/a b%é\uDCFF(x)!.txt', date)).toBe(
      '[Trash Info]\nPath=/data/a%20b%25%C3%A9%FF(x)!.txt\nDeletionDate=2026-01-02T03:04:05\n',
    );
  });

  it('home trash: an absolute XDG_DATA_HOME, else ~/.local/share', () => {
    expect(homeTrashDir({ XDG_DATA_HOME: '/x/data' })).toBe('/x/data/Trash');
    expect(homeTrashDir({ XDG_DATA_HOME: 'relative' })).toMatch(/\/\.local\/share\/Trash$/);
    expect(homeTrashDir({})).toMatch(/\/\.local\/share\/Trash$/);
  });
});
