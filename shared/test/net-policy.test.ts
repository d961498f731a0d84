/** Unit tests of the network policy's parts: address classes, origin rules, the decision order. */
import { describe, expect, it } from 'vitest';
import {
  classifyAddress,
  expandIPv6,
  NetworkPolicy,
  parseOriginList,
  parseOriginRule,
} from '../src/net/index.js';

describe('classifyAddress', () => {
  it.each([
    ['169.254.169.254', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['64:ff9b::a9fe:a9fe', 'metadata'],
    ['2002:7f00:1::1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.0.1', 'private'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['169.254.1.1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['100.64.0.1', 'shared'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'multicast'],
    ['ff02::1', 'multicast'],
    ['198.18.0.1', 'reserved'],
    ['240.0.0.1', 'reserved'],
    ['2001:db8::1', 'reserved'],
    ['not-an-ip', 'reserved'],
  ])('%s is refused as %s', (address, rule) => {
    expect(classifyAddress(address)).toBe(rule);
  });

  it.each([
    '8.8.8.8',
    '93.184.216.34',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '172.32.0.1',
  ])('%s is public', (address) => {
    expect(classifyAddress(address)).toBeUndefined();
  });

  it('expands IPv6 with an IPv4 tail', () => {
    expect(expandIPv6('::ffff:1.2.3.4')).toEqual([0, 0, 0, 0, 0, 0xffff, 0x102, 0x304]);
    expect(expandIPv6('1.2.3.4')).toBeUndefined();
  });
});

describe('origin rules', () => {
  it('parses origins, hosts, wildcards and networks', () => {
    expect(parseOriginRule('http://127.0.0.1:8080')).toMatchObject({
      kind: 'host',
      host: '127.0.0.1',
      port: 8080,
    });
    expect(parseOriginRule('https://Example.COM')).toMatchObject({
      kind: 'host',
      host: 'example.com',
      port: 443,
    });
    expect(parseOriginRule('example.com')).toMatchObject({
      kind: 'host',
      host: 'example.com',
      port: undefined,
    });
    expect(parseOriginRule('*.corp.example')).toMatchObject({ kind: 'suffix', suffix: 'corp.example' });
    expect(parseOriginRule('[::1]:3000')).toMatchObject({ kind: 'host', host: '::1', port: 3000 });
    expect(parseOriginRule('10.0.0.0/8')).toMatchObject({ kind: 'network' });
    expect(parseOriginRule('*')).toMatchObject({ kind: 'any' });
  });

  it.each(['ftp://x.example', 'http://x.example/path', 'http://user@x.example', '10.0.0.0/99', 'a:b:c'])(
    'refuses %s',
    (entry) => {
      expect(() => parseOriginRule(entry)).toThrow();
    },
  );
});

function policy(
  opts: {
    allowed?: string[];
    blocked?: string[];
    allowedOnly?: boolean;
    dns?: Record<string, string[]>;
  } = {},
) {
  return new NetworkPolicy({
    allowed: parseOriginList(opts.allowed ?? []),
    blocked: parseOriginList(opts.blocked ?? []),
    allowedOnly: opts.allowedOnly ?? false,
    schemes: ['http', 'https'],
    resolve: async (host) => {
      const answer = opts.dns?.[host];
      if (!answer) throw Object.assign(new Error('nx'), { code: 'ENOTFOUND' });
      return answer;
    },
  });
}

describe('NetworkPolicy', () => {
  it('BR-01 refuses metadata, loopback and private addresses by default, by resolved address', async () => {
    const p = policy({
      dns: {
        'metadata.internal': ['169.254.169.254'],
        'intranet.test': ['10.0.0.5'],
        'ok.test': ['93.184.216.34'],
      },
    });
    expect(await p.checkUrl('http://169.254.169.254/latest/meta-data/')).toMatchObject({
      ok: false,
      rule: 'metadata',
    });
    expect(await p.checkUrl('http://metadata.internal/')).toMatchObject({ ok: false, rule: 'metadata' });
    expect(await p.checkUrl('http://intranet.test/')).toMatchObject({ ok: false, rule: 'private' });
    expect(await p.checkUrl('http://2130706433/')).toMatchObject({ ok: false, rule: 'loopback' });
    expect(await p.checkUrl('http://0x7f.1/')).toMatchObject({ ok: false, rule: 'loopback' });
    expect(await p.checkUrl('http://0177.0.0.1/')).toMatchObject({ ok: false, rule: 'loopback' });
    expect(await p.checkUrl('http://[::ffff:169.254.169.254]/')).toMatchObject({
      ok: false,
      rule: 'metadata',
    });
    expect(await p.checkUrl('https://ok.test/')).toMatchObject({ ok: true, addresses: ['93.184.216.34'] });
  });

  it('BR-01 refuses a name with any refused address among its answers', async () => {
    const p = policy({ dns: { 'mixed.test': ['93.184.216.34', '127.0.0.1'] } });
    expect(await p.checkUrl('http://mixed.test/')).toMatchObject({ ok: false, rule: 'loopback' });
  });

  it('BR-02 refuses non-http schemes case-insensitively', async () => {
    const p = policy();
    for (const url of [
      'file:///etc/passwd',
      'FILE:///etc/passwd',
      'chrome://settings',
      'view-source:http://x/',
      'javascript:alert(1)',
      'data:text/html,hi',
    ])
      expect(await p.checkUrl(url)).toMatchObject({ ok: false, rule: 'scheme' });
    expect(await p.checkUrl('about:blank')).toMatchObject({ ok: true });
  });

  it('allowed origins exempt exactly that origin; blocked origins always win', async () => {
    const p = policy({
      allowed: ['http://127.0.0.1:8080', '10.0.0.0/8'],
      blocked: ['http://127.0.0.1:8080', 'evil.test'],
      dns: { 'evil.test': ['93.184.216.34'], 'lan.test': ['10.1.1.1'] },
    });
    expect(await p.checkUrl('http://127.0.0.1:8080/')).toMatchObject({ ok: false, rule: 'blocked-origins' });
    expect(await p.checkUrl('https://evil.test/')).toMatchObject({ ok: false, rule: 'blocked-origins' });
    expect(await p.checkUrl('http://lan.test/')).toMatchObject({ ok: true });
    const q = policy({ allowed: ['http://127.0.0.1:8080'] });
    expect(await q.checkUrl('http://127.0.0.1:8080/x')).toMatchObject({ ok: true });
    expect(await q.checkUrl('http://127.0.0.1:8081/x')).toMatchObject({ ok: false, rule: 'loopback' });
    expect(await q.checkUrl('http://localhost:8080/x')).toMatchObject({ ok: false });
  });

  it('--allowed-origins-only refuses every other origin', async () => {
    const p = policy({
      allowed: ['*.example.com'],
      allowedOnly: true,
      dns: { 'a.example.com': ['93.184.216.34'], 'other.test': ['93.184.216.35'] },
    });
    expect(await p.checkUrl('https://a.example.com/')).toMatchObject({ ok: true });
    expect(await p.checkUrl('https://other.test/')).toMatchObject({
      ok: false,
      rule: 'allowed-origins-only',
    });
  });

  it('names the rule in its message and records refusals', async () => {
    const p = policy();
    const mark = p.lastSeq;
    const verdict = await p.checkUrl('http://169.254.169.254/');
    expect(verdict.ok).toBe(false);
    if (!verdict.ok) expect(verdict.message).toMatch(/rule: metadata.*operator/);
    expect(p.refusalsAfter(mark)).toHaveLength(1);
    expect(p.refusalFor('http://169.254.169.254/')?.rule).toBe('metadata');
  });

  it('a DNS failure is an error, not a pass', async () => {
    expect(await policy().checkUrl('http://nowhere.test/')).toMatchObject({ ok: false, rule: 'dns' });
  });
});
