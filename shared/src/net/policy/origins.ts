/**
 * Origin rules of `--allowed-origins` / `--blocked-origins`. An entry is one of:
 *   http://127.0.0.1:8080   scheme, host and port (port defaults by scheme: 80, 443)
 *   example.com             that host, any port
 *   example.com:8443        that host and port
 *   *.example.com           any subdomain of example.com (not example.com itself)
 *   10.0.0.0/8, fd00::/8    any host that resolves into that network (judged on the address)
 *   *                       everything
 * Hosts are compared in canonical form (the WHATWG URL parser's: lower case, IDN to punycode,
 * IPv4 spellings to dotted quads, IPv6 compressed). Rules match on host and port; the scheme only
 * supplies the default port, because a CONNECT tunnel (https, wss) shows the proxy a host and port
 * but no scheme.
 */
import { BlockList, isIPv4, isIPv6 } from 'node:net';

export type OriginRule =
  | { kind: 'any'; text: string }
  | { kind: 'host'; host: string; port?: number; text: string }
  | { kind: 'suffix'; suffix: string; port?: number; text: string }
  | { kind: 'network'; list: BlockList; text: string };

/** What a request is matched on. `host` is canonical, IPv6 without brackets. */
export interface Endpoint {
  host: string;
  port: number;
}

const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443, 'ws:': 80, 'wss:': 443 };

/** Canonical host (lower case, punycode, dotted-quad IPv4, IPv6 without brackets) or undefined. */
export function canonicalHost(host: string): string | undefined {
  const bracketed = isIPv6(host) ? `[${host}]` : host;
  try {
    const url = new URL(`http://${bracketed}/`);
    if (url.username || url.password || url.pathname !== '/') return undefined;
    return url.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '');
  } catch {
    return undefined;
  }
}

function parseNetwork(entry: string): BlockList | undefined {
  const match = /^(.+)\/(\d{1,3})$/.exec(entry);
  if (!match) return undefined;
  const [, address = '', bits = ''] = match;
  const family = isIPv4(address) ? 'ipv4' : isIPv6(address) ? 'ipv6' : undefined;
  const prefix = Number(bits);
  if (!family || prefix > (family === 'ipv4' ? 32 : 128))
    throw new Error(`"${entry}" is not a valid network (e.g. 10.0.0.0/8)`);
  const list = new BlockList();
  list.addSubnet(address, prefix, family);
  return list;
}

/** Parses one entry (see the module comment); throws an Error naming it when it is not one. */
export function parseOriginRule(raw: string): OriginRule {
  const text = raw.trim();
  if (text === '*') return { kind: 'any', text };
  const network = parseNetwork(text);
  if (network) return { kind: 'network', list: network, text };
  let host: string;
  let port: number | undefined;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    let url: URL;
    try {
      url = new URL(text.replace('://*.', '://wildcard-placeholder.'));
    } catch {
      throw new Error(`"${text}" is not a valid origin`);
    }
    const defaultPort = DEFAULT_PORTS[url.protocol];
    if (defaultPort === undefined)
      throw new Error(`"${text}": only http, https, ws and wss origins can be listed`);
    if (url.pathname !== '/' || url.search || url.hash || url.username)
      throw new Error(`"${text}" is not an origin (no path, query or credentials)`);
    host = url.hostname.replace(/^\[|\]$/g, '').replace('wildcard-placeholder.', '*.');
    port = url.port ? Number(url.port) : defaultPort;
  } else {
    const match = /^(\[[^\]]+\]|[^:]+)(?::(\d{1,5}))?$/.exec(text);
    if (!match) throw new Error(`"${text}" is not a host, host:port, origin or network`);
    host = (match[1] ?? '').replace(/^\[|\]$/g, '');
    port = match[2] ? Number(match[2]) : undefined;
  }
  if (port !== undefined && (port < 1 || port > 65535)) throw new Error(`"${text}": port out of range`);
  if (host.startsWith('*.')) {
    const suffix = canonicalHost(host.slice(2));
    if (!suffix) throw new Error(`"${text}" has an invalid host`);
    return { kind: 'suffix', suffix, port, text };
  }
  const canonical = canonicalHost(host);
  if (!canonical) throw new Error(`"${text}" has an invalid host`);
  return { kind: 'host', host: canonical, port, text };
}

/** Parses a list of entries, skipping empty ones. */
export function parseOriginList(entries: string[]): OriginRule[] {
  return entries
    .map((e) => e.trim())
    .filter(Boolean)
    .map(parseOriginRule);
}

/** The first rule naming `endpoint` by host (not by network), or undefined. */
export function matchByName(rules: readonly OriginRule[], endpoint: Endpoint): OriginRule | undefined {
  return rules.find((rule) => {
    if (rule.kind === 'any') return true;
    if (rule.kind === 'network') {
      const family = isIPv4(endpoint.host) ? 'ipv4' : isIPv6(endpoint.host) ? 'ipv6' : undefined;
      return family !== undefined && rule.list.check(endpoint.host, family);
    }
    if (rule.port !== undefined && rule.port !== endpoint.port) return false;
    if (rule.kind === 'host') return rule.host === endpoint.host;
    return endpoint.host.endsWith(`.${rule.suffix}`);
  });
}

/** The first network rule containing one of `addresses`, or undefined. */
export function matchByAddress(
  rules: readonly OriginRule[],
  addresses: readonly string[],
): OriginRule | undefined {
  return rules.find(
    (rule) =>
      rule.kind === 'network' && addresses.some((a) => rule.list.check(a, isIPv4(a) ? 'ipv4' : 'ipv6')),
  );
}

/** The default port of a URL scheme ("http:" → 80), or undefined for other schemes. */
export function defaultPort(protocol: string): number | undefined {
  return DEFAULT_PORTS[protocol];
}
