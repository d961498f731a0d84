/**
 * One attempt of an upstream request, for every API server (HttpClient, and Octokit's
 * `request.fetch` in the GitHub server): the attempt runs under a timeout (ALL-07) covering headers
 * and body, the body is buffered under that timeout with a size cap (Octokit swallows body-read
 * errors, which would turn a stalled body into an empty result), and a timeout surfaces as a
 * TimeoutError.
 */
import { TimeoutError, ToolError } from '../server/errors.js';

/**
 * A timed-out attempt. Named "AbortError" on purpose: Octokit rethrows AbortErrors unchanged
 * (no wrapping, no retry by plugin-retry), which is what a call that already used its time needs.
 * It is still a TimeoutError (a ToolError), so the model reads "… timed out after N ms".
 */
export class UpstreamTimeout extends TimeoutError {
  override name = 'AbortError';
}

/** A response body over the cap. Also an "AbortError" so it is neither wrapped nor retried. */
export class ResponseTooLarge extends ToolError {
  override name = 'AbortError';
}

/**
 * The whole body of `response`, at most `maxBytes` bytes. `what` names the request in the error.
 * Errors: ResponseTooLarge when Content-Length or the bytes read pass the cap (the body is
 * cancelled at once, not read to the end).
 */
export async function readCapped(response: Response, maxBytes: number, what: string): Promise<Uint8Array> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (declared > maxBytes) {
    await response.body?.cancel().catch(() => {});
    throw new ResponseTooLarge(
      `${what}: the response is ${declared} bytes, over this server's ${maxBytes}-byte limit`,
    );
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (response.body) {
    for await (const chunk of response.body) {
      size += chunk.byteLength;
      if (size > maxBytes) {
        await response.body.cancel().catch(() => {});
        throw new ResponseTooLarge(`${what}: the response is over this server's ${maxBytes}-byte limit`);
      }
      chunks.push(chunk);
    }
  }
  return Buffer.concat(chunks, size);
}

/**
 * A fetch whose every call is one timed, capped attempt: per-attempt timeout `timeoutMs` (ms),
 * bodies buffered and capped at `maxBytes`, returned as a new Response over the buffered bytes.
 * `service` names the upstream in messages ("GitHub API"). Errors: UpstreamTimeout ("<service>
 * <METHOD> <path> timed out after N ms"), ResponseTooLarge, the caller's abort reason, or fetch's
 * own network errors. `fetchImpl` defaults to the global fetch (undici), looked up per call.
 */
export function timedFetch(
  service: string,
  timeoutMs: number,
  maxBytes: number,
  fetchImpl?: typeof fetch,
): typeof fetch {
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const what = `${service} ${init?.method ?? 'GET'} ${url.pathname}`;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    try {
      const response = await (fetchImpl ?? fetch)(input, { ...init, signal });
      const body =
        response.status === 204 || response.status === 304
          ? null
          : await readCapped(response, maxBytes, what);
      return new Response(body, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    } catch (error) {
      if (timeout.aborted && !init?.signal?.aborted) throw new UpstreamTimeout(what, timeoutMs);
      throw error;
    }
  };
}
