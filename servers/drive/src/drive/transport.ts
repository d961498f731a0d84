/**
 * The one fetch every Google request goes through (Drive API, uploads, OAuth token endpoint): the
 * shared timedFetch (per-attempt timeout, response-size cap), Google's fixed token URL
 * (`https://oauth2.googleapis.com/token`, which gtoken's service-account flow cannot be told
 * otherwise) sent to GOOGLE_OAUTH_TOKEN_URL, and stream bodies (googleapis-common's multipart
 * uploads) buffered first (undici's fetch refuses a stream body without `duplex`). The gaxios
 * transporter built on it never retries: retries are the shared policy's (client.ts).
 */
import { timedFetch } from '@refmcp/shared/upstream';
import { gaxios } from 'google-auth-library';

/** Google's token endpoint, where gtoken always posts. */
export const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';

async function bufferBody(body: unknown): Promise<unknown> {
  if (!body || typeof (body as { pipe?: unknown }).pipe !== 'function') return body;
  const chunks: Buffer[] = [];
  for await (const chunk of body as AsyncIterable<Buffer | string>)
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks);
}

/** The fetch of module comment: `tokenUrl` replaces Google's token URL; `timeoutMs` per attempt. */
export function googleFetch(tokenUrl: string, timeoutMs: number, maxBytes: number): typeof fetch {
  const timed = timedFetch('Google Drive API', timeoutMs, maxBytes);
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const url = String(input instanceof Request ? input.url : input);
    const target = url === GOOGLE_TOKEN_URL ? tokenUrl : url;
    const body = await bufferBody(init?.body);
    return timed(target, {
      ...init,
      ...(body !== undefined ? { body: body as NonNullable<RequestInit['body']> } : {}),
    });
  }) as typeof fetch;
}

/** A gaxios transporter on {@link googleFetch} with its own retries off. */
export function googleTransporter(fetchImpl: typeof fetch): gaxios.Gaxios {
  return new gaxios.Gaxios({ fetchImplementation: fetchImpl, retry: false, retryConfig: { retry: 0 } });
}
