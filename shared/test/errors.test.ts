import { describe, expect, it } from 'vitest';
import { describeError, TimeoutError, ToolError } from '../src/server/errors.js';

describe('describeError', () => {
  it('passes model-facing messages through', () => {
    expect(describeError(new ToolError('use head or tail'))).toBe('use head or tail');
    expect(describeError(new TimeoutError('query', 30000))).toBe('query timed out after 30000 ms');
  });

  it('explains Node system errors by code and path, without a stack', () => {
    const e = Object.assign(new Error("ENOENT: no such file or directory, open '/x'"), {
      code: 'ENOENT',
      path: '/x',
    });
    expect(describeError(e)).toBe('no such file or directory (ENOENT): /x');
  });

  it('labels unexpected errors as internal and never includes a stack', () => {
    const text = describeError(new TypeError('x is undefined'));
    expect(text).toBe('Internal error: x is undefined');
    expect(text).not.toMatch(/\n\s+at /);
  });
});
