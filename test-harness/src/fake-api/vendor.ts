// The route wrapper of a vendor fake: what every route of one vendor's fake shares — who the
// request is authenticated as, the vendor's headers on every reply (rate limits, scopes, API
// version), replies thrown from helpers — so that a vendor fake brings only its routes and state.
import type { FakeReply } from './reply.js';
import { Reply } from './reply.js';
import { type FakeApi, type FakeApiOptions, type FakeRequest, startFakeApi } from './server.js';

/** A vendor route: the request and whom {@link VendorHooks.authenticate} says it comes from. */
export type VendorHandler<Who> = (req: FakeRequest, who: Who) => FakeReply | Promise<FakeReply>;

/** What every route of a vendor fake does around its handler. */
export interface VendorHooks<Who> {
  /**
   * Who `req` is authenticated as (e.g. a login from the Authorization header; undefined for
   * anonymous). Throw a {@link Reply} to refuse (GitHub: 401 "Bad credentials"). Default: undefined.
   */
  authenticate?: (req: FakeRequest) => Who;
  /**
   * Headers added to every reply of every route, refusals included (`who` is undefined when
   * authentication refused); a handler's own headers win.
   */
  headers?: (req: FakeRequest, who: Who | undefined) => Record<string, string>;
}

/** `:name`/`*name` route parameters in the `{name}` form of API descriptions (OpenAPI, Discovery). */
export function routeTemplate(pattern: string): string {
  return pattern.replace(/[:*](\w+)/g, '{$1}');
}

/**
 * A vendor fake: one {@link FakeApi} whose routes all pass through the vendor's hooks. Subclass it
 * (or hold one) and register the vendor's routes with {@link FakeVendor.route}.
 */
export class FakeVendor<Who> {
  /** Routes registered, as [METHOD, template] with `{param}` names (what the spec check looks up). */
  readonly routes: Array<[string, string]> = [];

  constructor(
    /** The HTTP fake (requests and replies recorded, faults, latency: see FakeApi). */
    readonly api: FakeApi,
    private readonly hooks: VendorHooks<Who> = {},
  ) {}

  /** The base URL the server under test is pointed at (prefix included). */
  get url(): string {
    return this.api.url;
  }

  /**
   * Registers `handler` for `method` and `pattern` (toolkit syntax: `:param`, trailing `*rest`):
   * authenticates, runs the handler, turns a thrown {@link Reply} into the reply, adds the
   * vendor's headers. Other errors become a 500 naming the failure (a bug in the fake).
   */
  route(method: string, pattern: string, handler: VendorHandler<Who>): this {
    this.routes.push([method.toUpperCase(), routeTemplate(pattern)]);
    this.api.route(method, pattern, async (req) => {
      let reply: FakeReply;
      let who: Who | undefined;
      try {
        who = this.hooks.authenticate?.(req) as Who;
        reply = await handler(req, who);
      } catch (error) {
        if (!(error instanceof Reply)) throw error;
        reply = error.reply;
      }
      return { ...reply, headers: { ...this.hooks.headers?.(req, who), ...reply.headers } };
    });
    return this;
  }

  async close(): Promise<void> {
    await this.api.close();
  }
}

/** Options of {@link startFakeVendor}: the fake API's (`vendor` names the spec source) plus the hooks. */
export type FakeVendorOptions<Who> = FakeApiOptions & VendorHooks<Who> & { vendor: string };

/** Starts a {@link FakeApi} for `options.vendor` on 127.0.0.1 and wraps it with the vendor's hooks. */
export async function startFakeVendor<Who>(options: FakeVendorOptions<Who>): Promise<FakeVendor<Who>> {
  const { authenticate, headers, ...api } = options;
  return new FakeVendor<Who>(await startFakeApi(api), {
    ...(authenticate ? { authenticate } : {}),
    ...(headers ? { headers } : {}),
  });
}
