/**
 * The network policy: which URLs the model may open and which hosts a server may reach (the
 * browser, the page reader). It is fixed at startup from the operator's flags (flags.ts); no tool
 * argument reaches it (case BR-06).
 *
 * Enforcement belongs to the client, which asks {@link NetworkPolicy.checkEndpoint} when it
 * connects and then connects to exactly the addresses that were checked — so the check is on the
 * resolved address, applies to every redirect hop, and a DNS answer that changes between check and
 * connect (DNS rebinding) cannot slip past it. The browser does this in its policy proxy (every
 * subresource, frame, worker and WebSocket too); `readPage` in its connection lookup. Callers also
 * check the URL up front ({@link NetworkPolicy.checkUrl}) to answer with the rule instead of an
 * error page.
 *
 * Order of the rules: scheme (http/https plus operator-enabled ones); --blocked-origins (always
 * wins); --allowed-origins (exempts the origin from the address rules); --allowed-origins-only
 * (nothing else); then every resolved address must be public (addresses.ts).
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { type AddressRule, classifyAddress, RULE_TEXT } from './addresses.js';
import {
  canonicalHost,
  defaultPort,
  type Endpoint,
  matchByAddress,
  matchByName,
  type OriginRule,
} from './origins.js';

export interface PolicyOptions {
  allowed: OriginRule[];
  blocked: OriginRule[];
  /** Only --allowed-origins may be reached. */
  allowedOnly: boolean;
  /** Lower-case schemes without ':' that navigation may use (always http and https). */
  schemes: string[];
  /** Resolves a host name to addresses (tests inject one); default: the system resolver. */
  resolve?: (host: string) => Promise<string[]>;
  /** Time budget of one DNS lookup, ms (default 5000). */
  dnsTimeoutMs?: number;
}

export type RefusalRule =
  | AddressRule
  | 'scheme'
  | 'blocked-origins'
  | 'allowed-origins-only'
  | 'dns'
  | 'invalid';

export type Verdict =
  | { ok: true; addresses: string[]; endpoint?: Endpoint }
  | { ok: false; rule: RefusalRule; message: string };

/** One refused request, kept for the tools to report (navigation results, network listing). */
export interface Refusal {
  seq: number;
  time: number;
  target: string;
  rule: RefusalRule;
  message: string;
}

/** Who can change a refusal, and with which options (tool arguments never can). */
const operatorHint = (options: string) =>
  `Only the operator can change this (${options}); tool arguments cannot.`;
const OPERATOR_HINT = operatorHint('--allowed-origins, --blocked-origins');
const CACHE_MS = 30_000;
const MAX_REFUSALS = 200;

async function systemResolve(host: string): Promise<string[]> {
  const answers = await lookup(host, { all: true, verbatim: true });
  return answers.map((a) => a.address);
}

export class NetworkPolicy {
  readonly schemes: readonly string[];
  private readonly cache = new Map<string, { addresses: string[]; until: number }>();
  private readonly refusals: Refusal[] = [];
  private seq = 0;

  constructor(private readonly options: PolicyOptions) {
    this.schemes = Object.freeze([...options.schemes]);
  }

  /** A short description for the server instructions and logs. */
  describe(): string {
    const allowed = this.options.allowed.map((r) => r.text).join(', ') || 'none';
    const blocked = this.options.blocked.map((r) => r.text).join(', ') || 'none';
    return (
      `schemes ${this.schemes.join(', ')}; loopback/private/link-local/metadata addresses refused` +
      `${this.options.allowedOnly ? '; only the allowed origins are reachable' : ''}; allowed origins: ${allowed}; blocked origins: ${blocked}`
    );
  }

  /**
   * Checks a URL the model asked to open: scheme first (case-insensitive, as parsed), then for
   * http(s) the endpoint. `about:blank` is always allowed. Never throws.
   */
  async checkUrl(raw: string): Promise<Verdict> {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return this.refuse(
        raw,
        'invalid',
        `"${raw.slice(0, 200)}" is not an absolute URL (e.g. https://example.com/)`,
      );
    }
    const scheme = url.protocol.replace(/:$/, '');
    if (url.href === 'about:blank') return { ok: true, addresses: [] };
    if (!this.schemes.includes(scheme))
      return this.refuse(
        url.href,
        'scheme',
        `Refused by the network policy (rule: scheme): "${scheme}:" URLs are not allowed; allowed schemes: ${this.schemes.join(', ')}. ${operatorHint('--allowed-schemes')}`,
      );
    const port = defaultPort(url.protocol);
    if (port === undefined) return { ok: true, addresses: [] }; // file:, data: enabled by the operator
    return this.checkEndpoint(url.hostname, url.port ? Number(url.port) : port, url.href);
  }

  /**
   * Checks that the browser may connect to `host:port`; on success returns the addresses that may
   * be connected to (all of them passed). Never throws. `target` names the request in messages.
   */
  async checkEndpoint(rawHost: string, port: number, target = `${rawHost}:${port}`): Promise<Verdict> {
    const host = canonicalHost(rawHost.replace(/^\[|\]$/g, ''));
    if (!host) return this.refuse(target, 'invalid', `"${rawHost.slice(0, 200)}" is not a valid host name`);
    const endpoint = { host, port };
    const blocked = matchByName(this.options.blocked, endpoint);
    if (blocked) return this.refuseBlocked(target, host, blocked);
    let addresses: string[];
    try {
      addresses = await this.resolve(host);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      return this.refuse(target, 'dns', `Could not resolve ${host} (${code}).`);
    }
    const blockedNet = matchByAddress(this.options.blocked, addresses);
    if (blockedNet) return this.refuseBlocked(target, host, blockedNet);
    const allowed =
      matchByName(this.options.allowed, endpoint) ?? matchByAddress(this.options.allowed, addresses);
    if (allowed) return { ok: true, addresses, endpoint };
    if (this.options.allowedOnly)
      return this.refuse(
        target,
        'allowed-origins-only',
        `Refused by the network policy (rule: allowed-origins-only): ${host}:${port} is not one of the allowed origins. ${OPERATOR_HINT}`,
      );
    for (const address of addresses) {
      const rule = classifyAddress(address);
      if (!rule) continue;
      const resolved = address === host ? '' : ` resolves to ${address},`;
      return this.refuse(
        target,
        rule,
        `Refused by the network policy (rule: ${rule}): ${host}${resolved} ${resolved ? '' : 'is '}${RULE_TEXT[rule]}. ${OPERATOR_HINT}`,
      );
    }
    return { ok: true, addresses, endpoint };
  }

  /** Refusals with `seq` greater than `after` (use {@link lastSeq} as a marker before a call). */
  refusalsAfter(after: number): Refusal[] {
    return this.refusals.filter((r) => r.seq > after);
  }

  /**
   * The latest refusal of the request to `url` (exact URL for http, scheme://host:port for a
   * CONNECT tunnel), or undefined. For annotating failed requests in listings.
   */
  refusalFor(url: string): Refusal | undefined {
    let origin = '';
    try {
      const parsed = new URL(url);
      const port = parsed.port || String(defaultPort(parsed.protocol) ?? '');
      origin = `https://${parsed.hostname}:${port}`;
    } catch {
      // compared by the exact URL only
    }
    for (let i = this.refusals.length - 1; i >= 0; i--) {
      const r = this.refusals[i];
      if (r && (r.target === url || r.target === origin)) return r;
    }
    return undefined;
  }

  /** Records a refusal made outside this class (e.g. a frame blanked for its scheme). */
  recordRefusal(target: string, rule: RefusalRule, message: string): void {
    this.refuse(target, rule, message);
  }

  get lastSeq(): number {
    return this.seq;
  }

  private refuseBlocked(target: string, host: string, rule: OriginRule): Verdict {
    return this.refuse(
      target,
      'blocked-origins',
      `Refused by the network policy (rule: blocked-origins): ${host} matches blocked origin "${rule.text}". ${OPERATOR_HINT}`,
    );
  }

  private refuse(target: string, rule: RefusalRule, message: string): Verdict {
    this.refusals.push({ seq: ++this.seq, time: Date.now(), target: target.slice(0, 500), rule, message });
    if (this.refusals.length > MAX_REFUSALS) this.refusals.shift();
    return { ok: false, rule, message };
  }

  private async resolve(host: string): Promise<string[]> {
    if (isIP(host)) return [host];
    const cached = this.cache.get(host);
    if (cached && cached.until > Date.now()) return cached.addresses;
    const resolver = this.options.resolve ?? systemResolve;
    const ms = this.options.dnsTimeoutMs ?? 5000;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(Object.assign(new Error('DNS timeout'), { code: `timed out after ${ms} ms` })),
        ms,
      );
    });
    try {
      const addresses = await Promise.race([resolver(host), timeout]);
      if (addresses.length === 0) throw Object.assign(new Error('no addresses'), { code: 'ENOTFOUND' });
      this.cache.set(host, { addresses, until: Date.now() + CACHE_MS });
      if (this.cache.size > 1000) this.cache.delete(this.cache.keys().next().value ?? '');
      return addresses;
    } finally {
      clearTimeout(timer);
    }
  }
}
