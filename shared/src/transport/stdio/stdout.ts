/**
 * The one place a server's stdout is written through. JSON allows U+2028 (LINE SEPARATOR) and
 * U+2029 (PARAGRAPH SEPARATOR) raw inside strings, but hosts that split stdout on line terminators
 * (Node ≥ 24's `readline`, some editors' line readers) cut a message holding one in two. Every
 * string written to stdout — the SDK transport's messages, the stdin guard's refusals — has them
 * escaped as `\u2028` / `\u2029`: the same JSON value, and a character that can only be inside a
 * JSON string (it is not JSON whitespace), so the escape is exact.
 */

const LINE_SEPARATOR = /[\u2028\u2029]/;
const LINE_SEPARATORS = /[\u2028\u2029]/g;
const ESCAPING = Symbol('refmcp.escapesLineSeparators');

/** `json` with U+2028 and U+2029 written as JSON escapes (`\u2028`, `\u2029`); same JSON value. */
export function escapeLineSeparators(json: string): string {
  // test() first: the common case (none) then costs one scan and no copy.
  if (!LINE_SEPARATOR.test(json)) return json;
  return json.replace(LINE_SEPARATORS, (c) => (c === '\u2028' ? '\\u2028' : '\\u2029'));
}

/**
 * Makes every later string write to `stream` (process.stdout) go through
 * {@link escapeLineSeparators}. Buffers are written as they are (nothing in the servers writes
 * JSON-RPC as a Buffer). Idempotent.
 */
export function escapeLineSeparatorsOn(stream: NodeJS.WriteStream): void {
  const marked = stream as NodeJS.WriteStream & { [ESCAPING]?: true };
  if (marked[ESCAPING]) return;
  marked[ESCAPING] = true;
  const write = stream.write.bind(stream) as (...args: unknown[]) => boolean;
  stream.write = ((chunk: unknown, ...rest: unknown[]) =>
    write(typeof chunk === 'string' ? escapeLineSeparators(chunk) : chunk, ...rest)) as typeof stream.write;
}

/**
 * Writes one framed JSON-RPC line (the stdin guard's answers, batch arrays) to stdout, the one
 * stream that carries JSON-RPC; escaped as {@link escapeLineSeparatorsOn} sets up.
 */
export function writeJsonRpcLine(line: string): boolean {
  return process.stdout.write(line);
}

/**
 * Gathers what is written to `stream` during one turn of the event loop into one write: the
 * first write of a turn corks the stream, and a `setImmediate` (after the turn's I/O callbacks)
 * uncorks it, so answers that complete together — calls in flight whose upstream replies arrived
 * in the same poll — leave in one `writev` instead of one blocking pipe write (and one wake-up of
 * the host) each. Order is kept (one stream); an answer waits at most until the end of its turn.
 * Returns the function to call before each write. Only for a running transport: a write followed
 * by a synchronous `process.exit` would lose the corked bytes (the shutdown path awaits first).
 */
export function coalescingWrites(
  stream: NodeJS.WritableStream & { cork(): void; uncork(): void },
): () => void {
  let corked = false;
  const uncork = () => {
    corked = false;
    stream.uncork();
  };
  return () => {
    if (corked) return;
    corked = true;
    stream.cork();
    setImmediate(uncork);
  };
}
