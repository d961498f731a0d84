/**
 * The signed-in OAuth tokens of a GitLab server (the client's token provider, gitlab/client.ts):
 * the access token sent as `Authorization: Bearer`, refreshed with the refresh token
 * (`POST <instance>/oauth/token`, grant_type=refresh_token; GitLab's access tokens expire after
 * 2 hours and each refresh returns a new refresh token) when it is expired (60 s early) or GitLab
 * answers 401. Every new pair is saved (token-file.ts). A refresh GitLab refuses drops the tokens:
 * the next call signs in again (sign-in.ts). One refresh at a time, shared by every caller that needs
 * it: it runs under its own request timeout, not a caller's signal, and each caller stops waiting
 * when its own signal aborts (the others still get the new token).
 */
import {
  DeviceFlowError,
  type DeviceToken,
  type HttpPolicy,
  refreshAccessToken,
  ToolError,
} from '@refmcp/shared';
import type { TokenProvider } from '../gitlab/client.js';
import { type SavedGitLabToken, saveToken } from './token-file.js';

/** Seconds before `expires_at` a token counts as expired (clock skew, the request's own time). */
const EARLY_S = 60;

export interface OAuthSessionOptions {
  /** The instance's web base URL (ends in "/"). */
  instance: URL;
  clientId: string;
  tokenFile: string;
  policy: HttpPolicy;
  userAgent: string;
  log: (line: string) => void;
  /**
   * The client's scrub list: the tokens this session holds now and the pair before them (a request
   * sent with the previous token may still fail after a rotation) are in it; older ones are removed.
   */
  secrets: string[];
}

export class OAuthSession implements TokenProvider {
  private saved?: SavedGitLabToken;
  private refreshing?: Promise<boolean>;
  /** The tokens this session put in `secrets`: the previous pair, then the current one. */
  private scrubbed: string[][] = [];

  constructor(private readonly options: OAuthSessionOptions) {}

  /** True while tokens are held (possibly expired but refreshable). */
  get signedIn(): boolean {
    return this.saved !== undefined;
  }

  /** Uses `saved` (read at start). */
  load(saved: SavedGitLabToken): void {
    this.hold(saved);
  }

  /** Uses and saves a token response (a sign-in's or a refresh's). */
  use(token: DeviceToken): void {
    const saved: SavedGitLabToken = {
      instance: this.options.instance.href,
      access_token: token.access_token,
      ...(token.refresh_token ? { refresh_token: token.refresh_token } : {}),
      ...(token.expires_in !== undefined
        ? { expires_at: Math.floor(Date.now() / 1000) + token.expires_in }
        : {}),
      ...(token.scope !== undefined ? { scope: token.scope } : {}),
      ...(token.token_type ? { token_type: token.token_type } : {}),
    };
    this.hold(saved);
    try {
      saveToken(this.options.tokenFile, saved);
    } catch (error) {
      this.options.log(
        `warn: cannot save the GitLab sign-in to ${this.options.tokenFile} (${(error as Error).message}): the next start signs in again`,
      );
    }
  }

  private hold(saved: SavedGitLabToken): void {
    const secrets = this.options.secrets;
    const added: string[] = [];
    for (const t of [saved.access_token, saved.refresh_token])
      if (t && !secrets.includes(t)) {
        secrets.push(t);
        added.push(t);
      }
    this.scrubbed.push(added);
    // Keep the current and the previous pair; drop the ones before.
    while (this.scrubbed.length > 2)
      for (const t of this.scrubbed.shift() ?? []) {
        const i = secrets.indexOf(t);
        if (i >= 0) secrets.splice(i, 1);
      }
    this.saved = saved;
  }

  private expired(): boolean {
    const at = this.saved?.expires_at;
    return at !== undefined && Date.now() / 1000 >= at - EARLY_S;
  }

  /**
   * The access token to send now, refreshed first when expired; undefined when not signed in.
   * Errors: ToolError when it expired and GitLab refused the refresh (the tokens are dropped).
   */
  async token(signal?: AbortSignal): Promise<string | undefined> {
    if (this.saved && this.expired()) {
      if (!(await this.refresh(signal)))
        throw new ToolError(
          'The GitLab sign-in expired and could not be refreshed: call the tool again to sign in again.',
        );
    }
    return this.saved?.access_token;
  }

  /** GitLab refused `token` (401): refreshes once; true when a new token can be sent. */
  async refused(token: string, signal?: AbortSignal): Promise<boolean> {
    if (!this.saved) return false;
    if (this.saved.access_token !== token) return true;
    return this.refresh(signal);
  }

  /** Joins (or starts) the one refresh; stops waiting with `signal`'s reason when it aborts first. */
  private refresh(signal?: AbortSignal): Promise<boolean> {
    this.refreshing ??= this.doRefresh().finally(() => {
      this.refreshing = undefined;
    });
    const shared = this.refreshing;
    if (!signal) return shared;
    if (signal.aborted) return Promise.reject(signal.reason);
    return new Promise<boolean>((resolve, reject) => {
      const onAbort = () => reject(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
      shared.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    });
  }

  /**
   * Refreshes under the request timeout only (no caller's signal). GitLab's refusal drops the
   * tokens (false); a network error or timeout keeps them and is thrown.
   */
  private async doRefresh(): Promise<boolean> {
    const refresh = this.saved?.refresh_token;
    if (!refresh) {
      this.saved = undefined;
      this.options.log('the GitLab sign-in expired and has no refresh token: the next call signs in again');
      return false;
    }
    let token: DeviceToken;
    try {
      token = await refreshAccessToken(new URL('oauth/token', this.options.instance).href, refresh, {
        clientId: this.options.clientId,
        timeoutMs: this.options.policy.timeoutMs,
        userAgent: this.options.userAgent,
      });
    } catch (error) {
      if (!(error instanceof DeviceFlowError)) throw error;
      this.saved = undefined;
      this.options.log(
        `GitLab refused to refresh the sign-in (${error.message}): the next call signs in again`,
      );
      return false;
    }
    this.use({ ...token, refresh_token: token.refresh_token ?? refresh });
    this.options.log('refreshed the GitLab sign-in');
    return true;
  }
}
