/**
 * REST path segments from model-supplied values (case GH-01: path traversal into other
 * endpoints). Each segment is percent-encoded on its own (RFC 3986 §3.3: a segment must not carry
 * an unencoded "/", "?" or "#"), and "." / ".." segments are refused outright — clients and proxies
 * normalise them away (WHATWG URL "shorten path"), which would turn `contents/../../../user` into
 * `/user`. Errors are ToolErrors naming the argument, written for the model.
 */
import { ToolError } from '../server/errors.js';

const DOT_SEGMENT = /^\.{1,2}$/;
// C0 controls and DEL never occur in names a model should send; refusing them keeps logs clean.
// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;

/** Percent-encodes one segment (encodeURIComponent, plus the sub-delims it leaves: ! ' ( ) *). */
function encode(segment: string): string {
  return encodeURIComponent(segment).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/**
 * One path segment (an owner, a number, a branch component). Refuses empty, "." and "..", and any
 * "/" (use {@link encodePath} for multi-segment values). `name` is the argument name for errors.
 */
export function encodeSegment(value: string, name: string): string {
  if (value === '') throw new ToolError(`${name}: must not be empty`);
  if (value.includes('/')) throw new ToolError(`${name}: must be a single name without "/"`);
  if (DOT_SEGMENT.test(value)) throw new ToolError(`${name}: "." and ".." are not allowed`);
  if (CONTROL.test(value)) throw new ToolError(`${name}: must not contain control characters`);
  return encode(value);
}

/**
 * A "/"-separated path (a file path, a branch like `feature/x`): one leading or trailing "/" is
 * dropped, every segment is encoded on its own and "/" kept between them. Returns "" for an empty
 * path (the root). Refuses "." / ".." segments and empty segments ("a//b"), naming `name`.
 */
export function encodePath(value: string, name: string): string {
  const trimmed = value.replace(/^\/+/, '').replace(/\/+$/, '');
  if (trimmed === '') return '';
  return trimmed
    .split('/')
    .map((segment) => {
      if (segment === '')
        throw new ToolError(`${name}: empty path segment ("//") in ${JSON.stringify(value)}`);
      if (DOT_SEGMENT.test(segment))
        throw new ToolError(
          `${name}: "." and ".." segments are not allowed (got ${JSON.stringify(value)}); give the path from the repository root`,
        );
      if (CONTROL.test(segment)) throw new ToolError(`${name}: must not contain control characters`);
      return encode(segment);
    })
    .join('/');
}
