// The stand-in for Google's consent page (`GET /o/oauth2/v2/auth` on accounts.google.com,
// developers.google.com/identity/protocols/oauth2/native-app, step 2): the test plays the user by
// requesting the consent URL a server made; the page "allows" (or, with `state.consent = 'deny'`,
// denies) at once and redirects to the loopback `redirect_uri` with `code` and `state` (or
// `error=access_denied`), as Google does after the user's click. A code minted here remembers its
// PKCE challenge, redirect URI and client, which the token endpoint checks (routes-token.ts). Not
// part of Drive's API: a plain fake, outside the spec check. Errors Google shows as a page (an
// unknown client, a redirect URI that is not loopback) are plain-text 400/401 here; the others are
// redirects with `error=` (RFC 6749 §4.1.2.1).
import { randomBytes } from 'node:crypto';
import type { FakeApi } from '../../fake-api/server.js';
import type { DriveState } from './state.js';

const page = (status: number, text: string) => ({
  status,
  headers: { 'content-type': 'text/plain; charset=utf-8' },
  raw: text,
});

function loopbackRedirect(raw: string | null): URL | undefined {
  if (!raw) return undefined;
  try {
    const url = new URL(raw);
    const loopback = ['127.0.0.1', '[::1]', 'localhost'].includes(url.hostname);
    return url.protocol === 'http:' && loopback ? url : undefined;
  } catch {
    return undefined;
  }
}

/** Registers the consent page on `accounts`. */
export function registerConsentRoutes(accounts: FakeApi, state: DriveState): void {
  accounts.route('GET', '/o/oauth2/v2/auth', (req) => {
    const q = req.query;
    const clientId = q.get('client_id') ?? '';
    if (!state.clients.has(clientId))
      return page(401, 'Error 401: invalid_client. The OAuth client was not found.');
    const redirect = loopbackRedirect(q.get('redirect_uri'));
    if (!redirect) return page(400, 'Error 400: redirect_uri_mismatch.');
    const answer = (params: Record<string, string>) => {
      for (const [k, v] of Object.entries(params)) redirect.searchParams.set(k, v);
      const st = q.get('state');
      if (st !== null) redirect.searchParams.set('state', st);
      return { status: 302, headers: { location: redirect.href }, raw: '' };
    };
    if (q.get('response_type') !== 'code') return answer({ error: 'unsupported_response_type' });
    const scopes = (q.get('scope') ?? '').split(' ').filter(Boolean);
    if (!scopes.length) return answer({ error: 'invalid_request' });
    const challenge = q.get('code_challenge');
    if (challenge && q.get('code_challenge_method') !== 'S256') return answer({ error: 'invalid_request' });
    if (state.consent === 'deny') return answer({ error: 'access_denied' });
    const code = `4/0fake-${randomBytes(12).toString('hex')}`;
    state.codes.set(code, scopes);
    state.codeGrants.set(code, {
      clientId,
      redirectUri: q.get('redirect_uri') as string,
      ...(challenge ? { challenge } : {}),
    });
    return answer({ code, scope: scopes.join(' ') });
  });
}
