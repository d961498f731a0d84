/**
 * The undici dispatcher that enforces a {@link NetworkPolicy} where it cannot be raced: at connect
 * time. Every new connection first asks `policy.checkEndpoint(host, port)` (blocked/allowed
 * origins, then the class of every resolved address), and the socket is then opened with a lookup
 * pinned to exactly the addresses that passed — so a DNS answer that changes between check and
 * connect (DNS rebinding) cannot reach a refused address. TLS still verifies the certificate
 * against the host name. Environment proxies are not used (the Agent ignores HTTP_PROXY).
 */
import type { LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { Agent, buildConnector } from 'undici';
import { verdictError } from './errors.js';
import type { NetworkPolicy } from './policy/network-policy.js';

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/** A `lookup` for net/tls.connect that answers only with `addresses` (all already checked). */
function pinnedLookup(addresses: readonly string[]) {
  return (_host: string, options: { all?: boolean; family?: number | string }, callback: LookupCallback) => {
    const family =
      options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : Number(options.family) || 0;
    const usable = addresses
      .map((address) => ({ address, family: isIP(address) }))
      .filter((a) => family === 0 || a.family === family);
    const first = usable[0];
    if (!first) {
      callback(
        Object.assign(new Error('no checked address of the requested family'), { code: 'ENOTFOUND' }),
        [],
      );
      return;
    }
    if (options.all) callback(null, usable);
    else callback(null, first.address, first.family);
  };
}

const agents = new WeakMap<NetworkPolicy, Agent>();

/**
 * The shared Agent of `policy` (one per policy, connections kept alive per origin). Connection
 * refusals surface as {@link NetworkRefusal} in the request's error `cause` (a name that does not
 * resolve as a PageReadError 'network').
 */
export function policyAgent(policy: NetworkPolicy, connectTimeoutMs = 10_000): Agent {
  const existing = agents.get(policy);
  if (existing) return existing;
  const agent = new Agent({
    connect: (options, callback) => {
      const port = Number(options.port) || (options.protocol === 'https:' ? 443 : 80);
      const target = `${options.protocol}//${options.host ?? options.hostname}`;
      policy.checkEndpoint(options.hostname, port, target).then(
        (verdict) => {
          if (!verdict.ok) {
            callback(verdictError(verdict, target), null);
            return;
          }
          // A connector per connection: its options carry this connection's pinned lookup.
          const connect = buildConnector({
            timeout: connectTimeoutMs,
            lookup: pinnedLookup(verdict.addresses),
          } as buildConnector.BuildOptions);
          connect(options, callback);
        },
        (error: Error) => callback(error, null),
      );
    },
  });
  agents.set(policy, agent);
  return agent;
}
