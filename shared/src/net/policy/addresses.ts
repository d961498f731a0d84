/**
 * Which IP addresses a server (the browser, the page reader) may not reach unless the operator
 * allows the origin: loopback, private, link-local (with the cloud metadata endpoints),
 * carrier-grade NAT, unspecified, multicast, broadcast, documentation/benchmark and other reserved
 * ranges, for IPv4 and IPv6. IPv6 forms that carry an IPv4 address (IPv4-mapped ::ffff:a.b.c.d,
 * IPv4-compatible ::a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16) are judged by that IPv4 address.
 *
 * Sources: IANA IPv4 and IPv6 Special-Purpose Address Registries (RFC 6890 and updates), RFC 6052
 * (NAT64), RFC 3056 (6to4); metadata endpoints from the AWS, GCP, Azure, Alibaba and Oracle docs.
 * Matching uses Node's `net.BlockList`, which also matches IPv4-mapped IPv6 against IPv4 ranges.
 * Odd spellings (decimal `2130706433`, octal `0177.0.0.1`, hex `0x7f.1`, `127.1`) never reach this
 * module: the WHATWG URL parser (Node's and Chromium's) canonicalises them to dotted quads first.
 */
import { BlockList, isIPv4, isIPv6 } from 'node:net';

/** Why an address is refused; the names appear in error messages and the README. */
export type AddressRule =
  | 'metadata'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'shared'
  | 'unspecified'
  | 'multicast'
  | 'reserved';

export const RULE_TEXT: Record<AddressRule, string> = {
  metadata: 'a cloud metadata endpoint',
  loopback: 'a loopback address',
  private: 'a private-network address',
  'link-local': 'a link-local address',
  shared: 'a carrier-grade NAT (shared) address',
  unspecified: 'the unspecified address',
  multicast: 'a multicast or broadcast address',
  reserved: 'a reserved or special-purpose address',
};

type Range = [address: string, prefix: number, family: 'ipv4' | 'ipv6', rule: AddressRule];

// Order matters: the first matching list names the rule (metadata before link-local, …).
const RANGES: Range[] = [
  ['169.254.169.254', 32, 'ipv4', 'metadata'], // AWS, GCP, Azure, OpenStack, Oracle
  ['169.254.170.2', 32, 'ipv4', 'metadata'], // AWS ECS task metadata
  ['100.100.100.200', 32, 'ipv4', 'metadata'], // Alibaba Cloud
  ['192.0.0.192', 32, 'ipv4', 'metadata'], // Oracle Cloud (legacy)
  ['fd00:ec2::254', 128, 'ipv6', 'metadata'], // AWS IMDS over IPv6
  ['127.0.0.0', 8, 'ipv4', 'loopback'],
  ['::1', 128, 'ipv6', 'loopback'],
  ['10.0.0.0', 8, 'ipv4', 'private'],
  ['172.16.0.0', 12, 'ipv4', 'private'],
  ['192.168.0.0', 16, 'ipv4', 'private'],
  ['fc00::', 7, 'ipv6', 'private'], // unique local
  ['fec0::', 10, 'ipv6', 'private'], // site-local (deprecated)
  ['169.254.0.0', 16, 'ipv4', 'link-local'],
  ['fe80::', 10, 'ipv6', 'link-local'],
  ['100.64.0.0', 10, 'ipv4', 'shared'],
  ['0.0.0.0', 8, 'ipv4', 'unspecified'],
  ['::', 128, 'ipv6', 'unspecified'],
  ['224.0.0.0', 4, 'ipv4', 'multicast'],
  ['255.255.255.255', 32, 'ipv4', 'multicast'],
  ['ff00::', 8, 'ipv6', 'multicast'],
  ['192.0.0.0', 24, 'ipv4', 'reserved'], // IETF protocol assignments
  ['192.0.2.0', 24, 'ipv4', 'reserved'], // TEST-NET-1
  ['192.88.99.0', 24, 'ipv4', 'reserved'], // 6to4 relay anycast
  ['198.18.0.0', 15, 'ipv4', 'reserved'], // benchmarking
  ['198.51.100.0', 24, 'ipv4', 'reserved'], // TEST-NET-2
  ['203.0.113.0', 24, 'ipv4', 'reserved'], // TEST-NET-3
  ['240.0.0.0', 4, 'ipv4', 'reserved'],
  ['64:ff9b:1::', 48, 'ipv6', 'reserved'], // local-use NAT64
  ['100::', 64, 'ipv6', 'reserved'], // discard-only
  ['2001::', 23, 'ipv6', 'reserved'], // IETF protocol assignments (Teredo, ORCHID, …)
  ['2001:db8::', 32, 'ipv6', 'reserved'], // documentation
  ['::', 96, 'ipv6', 'reserved'], // IPv4-compatible (deprecated); judged by the IPv4 below too
];

const LISTS: Array<[AddressRule, BlockList]> = (() => {
  const byRule = new Map<AddressRule, BlockList>();
  for (const [address, prefix, family, rule] of RANGES) {
    const list = byRule.get(rule) ?? new BlockList();
    byRule.set(rule, list);
    list.addSubnet(address, prefix, family);
  }
  return [...byRule.entries()];
})();

/** The 32-bit IPv4 address in the low bits of a NAT64 (64:ff9b::/96), 6to4 (2002::/16) or ::/96 IPv6. */
function embeddedIPv4(address: string): string | undefined {
  const groups = expandIPv6(address);
  if (!groups) return undefined;
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  const zero = (from: number, to: number) => groups.slice(from, to).every((g) => g === 0);
  if (groups[0] === 0x64 && groups[1] === 0xff9b && zero(2, 6)) return v4(groups[6] ?? 0, groups[7] ?? 0);
  if (groups[0] === 0x2002) return v4(groups[1] ?? 0, groups[2] ?? 0);
  if (zero(0, 5) && groups[5] === 0xffff) return v4(groups[6] ?? 0, groups[7] ?? 0);
  // IPv4-compatible ::a.b.c.d; :: and ::1 (and the rest of ::/112) are themselves, not IPv4.
  if (zero(0, 6) && groups[6] !== 0) return v4(groups[6] ?? 0, groups[7] ?? 0);
  return undefined;
}

/** The eight 16-bit groups of an IPv6 address (with an optional dotted IPv4 tail), or undefined. */
export function expandIPv6(address: string): number[] | undefined {
  if (!isIPv6(address)) return undefined;
  let text = address.replace(/%.*$/, '');
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)?.[1];
  if (tail) {
    const [a = 0, b = 0, c = 0, d = 0] = tail.split('.').map(Number);
    text = `${text.slice(0, -tail.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', rest] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = rest ? rest.split(':') : [];
  const fill = rest === undefined ? [] : Array(8 - left.length - right.length).fill('0');
  const groups = [...left, ...fill, ...right].map((g) => Number.parseInt(g, 16));
  return groups.length === 8 && groups.every((g) => g >= 0 && g <= 0xffff) ? groups : undefined;
}

/**
 * The rule that refuses `address` (an IPv4 or IPv6 literal, brackets and zone id allowed), or
 * undefined when it is a public unicast address. A string that is not an IP address is 'reserved'
 * (never reached by the policy, which passes only resolved addresses).
 */
export function classifyAddress(address: string): AddressRule | undefined {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIPv4(bare) ? 'ipv4' : isIPv6(bare) ? 'ipv6' : undefined;
  if (!family) return 'reserved';
  if (family === 'ipv6') {
    const v4 = embeddedIPv4(bare);
    if (v4) {
      const inner = classifyAddress(v4);
      if (inner) return inner;
    }
  }
  for (const [rule, list] of LISTS) if (list.check(bare, family)) return rule;
  return undefined;
}
