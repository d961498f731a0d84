/** Helpers shared by the paths tests. */
import { expect } from 'vitest';
import { PathError, type PathErrorCode } from '../src/paths/index.js';

/** Awaits `p`, expects it to reject with a PathError of `code`, and returns that error. */
export async function rejects(p: Promise<unknown>, code: PathErrorCode): Promise<PathError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(PathError);
  expect((err as PathError).code).toBe(code);
  return err as PathError;
}
