import { describe, expect, it } from 'vitest';
import { LOCAL_HINTS, OPEN_WORLD_HINTS } from '../src/server/hints.js';

describe('hint presets', () => {
  it('each preset states all four hints; the two families differ only in openWorldHint', () => {
    expect(OPEN_WORLD_HINTS.readOnly).toEqual({
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
    });
    expect(LOCAL_HINTS.destructiveIdempotent).toEqual({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
      openWorldHint: false,
    });
    const triple = (h: object) => Object.values(h).slice(0, 3);
    expect(Object.values(OPEN_WORLD_HINTS).map(triple)).toEqual(Object.values(LOCAL_HINTS).map(triple));
    expect(Object.values(LOCAL_HINTS).map(triple)).toEqual([
      [true, false, true],
      [true, false, false],
      [false, false, false],
      [false, false, true],
      [false, true, false],
      [false, true, true],
    ]);
    expect(Object.isFrozen(LOCAL_HINTS.readOnly)).toBe(true);
  });
});
