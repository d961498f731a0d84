/**
 * One HTTP(S) GET whose connection is checked by the {@link NetworkPolicy} where the check cannot
 * be raced: at connect time. The socket's DNS lookup is the policy's own — it asks
 * `policy.checkEndpoint(host, port)` (blocked/allowed origins, then the class of every resolved
 * address) and answers with exactly the addresses that passed, or fails with the refusal — so a
 * DNS answer that changes between a check and the connect (DNS rebinding) cannot reach a refused
 * address. An IP-literal host (which Node connects to without a lookup) is checked just before.
 * TLS verifies the certificate against the host name; no proxy is used, no connection is reused
 * (each request opens its own), and no redirect is followed (the caller decides).
 *
 * Node's http/https with a `lookup` option, rather than a client library: the same guarantee as an
 * undici Agent with a custom connector, without adding ~1.2 MB of bundled client to each server.
 */
import type { LookupAddress } from 'node:dns';
import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { verdictError } from './errors.js';
import type { NetworkPolicy } from './policy/network-policy.js';

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/** A `lookup` for net/tls.connect that asks the policy and answers with the checked addresses. */
function policyLookup(policy: NetworkPolicy, port: number, target: string) {
  return (host: string, options: { all?: boolean; family?: number | string }, callback: LookupCallback) => {
    policy.checkEndpoint(host, port, target).then(
      (verdict) => {
        if (!verdict.ok) {
          callback(verdictError(verdict, target), []);
          return;
        }
        const family =
          options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : Number(options.family) || 0;
        const usable = verdict.addresses
          .map((address) => ({ address, family: isIP(address) }))
          .filter((a) => family === 0 || a.family === family);
        const first = usable[0];
        if (!first)
          callback(
            Object.assign(new Error(`no IPv${family} address for ${host}`), { code: 'ENOTFOUND' }),
            [],
          );
        else if (options.all) callback(null, usable);
        else callback(null, first.address, first.family);
      },
      (error: Error) => callback(error, []),
    );
  };
}

/** A response: status, headers and the body decoded from its Content-Encoding. */
export interface PolicyResponse {
  status: number;
  statusText: string;
  headers: IncomingHttpHeaders;
  /** The body after Content-Encoding (gzip, deflate, br); iterate it for Buffers. */
  body: Readable;
  /** Stops reading and closes the connection. */
  close(): void;
}

function decoded(response: IncomingMessage): Readable {
  const encoding = String(response.headers['content-encoding'] ?? '')
    .trim()
    .toLowerCase();
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? zlib.createGunzip()
      : encoding === 'deflate'
        ? zlib.createInflate()
        : encoding === 'br'
          ? zlib.createBrotliDecompress()
          : undefined;
  if (!decoder) return response;
  response.on('error', (error) => decoder.destroy(error));
  return response.pipe(decoder);
}

/**
 * GETs `url` (http or https) with `headers`, the connection checked by `policy` (module comment).
 * Resolves on the response head. Errors: NetworkRefusal (the policy refused the host or an
 * address), PageReadError 'network' (the name does not resolve), Node's socket/TLS errors, an
 * AbortError when `signal` aborts.
 */
export async function policyGet(
  url: URL,
  opts: { policy: NetworkPolicy; headers: Record<string, string>; signal: AbortSignal },
): Promise<PolicyResponse> {
  const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) {
    const verdict = await opts.policy.checkEndpoint(host, port, url.href);
    if (!verdict.ok) throw verdictError(verdict, url.href);
  }
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(url, {
      method: 'GET',
      headers: { 'accept-encoding': 'gzip, deflate, br', ...opts.headers },
      agent: false,
      lookup: policyLookup(opts.policy, port, url.href) as unknown as typeof import('node:dns').lookup,
      signal: opts.signal,
    });
    request.on('error', reject); // later errors (mid-body) surface on the body stream
    request.once('response', (response) => {
      const body = decoded(response);
      resolve({
        status: response.statusCode ?? 0,
        statusText: response.statusMessage ?? '',
        headers: response.headers,
        body,
        close: () => {
          body.destroy();
          response.destroy();
          request.destroy();
        },
      });
    });
    request.end();
  });
}
