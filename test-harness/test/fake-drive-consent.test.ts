// The fake Drive's consent page used by hand (as `mcp-harness fake drive` offers it): a request to
// the consent URL a client made is "allowed" at once and redirected to its loopback redirect URI
// with a code the fake token endpoint exchanges, bound to the client id, the exact redirect URI
// and the PKCE S256 challenge, once (RFC 6749 §4.1.2-4.1.3, RFC 7636 §4.6).
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeDrive, SCENE, seedScene, startFakeDrive } from '../src/fakes/drive/index.js';

let drive: FakeDrive;
beforeAll(async () => {
  drive = await startFakeDrive();
  seedScene(drive);
});
afterAll(() => drive.close());

const REDIRECT = 'http://127.0.0.1:1/';

/** Requests the consent page as a user's browser would; the code and state it redirects with. */
async function consent(challenge: string, clientId: string = SCENE.clientId) {
  const url = new URL(drive.authUrl);
  for (const [k, v] of Object.entries({
    client_id: clientId,
    redirect_uri: REDIRECT,
    response_type: 'code',
    scope: 'https://www.googleapis.com/auth/drive.readonly',
    state: 'st-1',
    code_challenge: challenge,
    code_challenge_method: 'S256',
  }))
    url.searchParams.set(k, v);
  const page = await fetch(url, { redirect: 'manual' });
  expect(page.status).toBe(302);
  const back = new URL(page.headers.get('location') ?? '');
  expect(back.origin + back.pathname).toBe(REDIRECT);
  expect(back.searchParams.get('state')).toBe('st-1');
  return back.searchParams.get('code') ?? '';
}

/** Exchanges `code` at the fake token endpoint; the status and JSON body. */
async function exchange(code: string, fields: Record<string, string>) {
  const res = await fetch(drive.tokenUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      client_id: SCENE.clientId,
      client_secret: SCENE.clientSecret,
      redirect_uri: REDIRECT,
      ...fields,
    }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

describe('fake Drive consent page, by hand', () => {
  it('mints a code the token endpoint exchanges once, with the verifier, for a refresh token', async () => {
    const { verifier, challenge } = pkce();
    const code = await consent(challenge);
    expect(code).toMatch(/^4\/0fake-/);
    const ok = await exchange(code, { code_verifier: verifier });
    expect(ok.status).toBe(200);
    expect(ok.body.refresh_token).toBeTruthy();
    expect(ok.body.scope).toBe('https://www.googleapis.com/auth/drive.readonly');
    const again = await exchange(code, { code_verifier: verifier });
    expect(again).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('refuses the code with another verifier, another redirect URI or another client', async () => {
    const { verifier, challenge } = pkce();
    const wrongVerifier = await exchange(await consent(challenge), { code_verifier: pkce().verifier });
    expect(wrongVerifier).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    const wrongRedirect = await exchange(await consent(challenge), {
      code_verifier: verifier,
      redirect_uri: 'http://127.0.0.1:2/',
    });
    expect(wrongRedirect).toMatchObject({ status: 400, body: { error: 'redirect_uri_mismatch' } });
    drive.state.clients.set('other-client', 'other-secret');
    const wrongClient = await exchange(await consent(challenge), {
      code_verifier: verifier,
      client_id: 'other-client',
      client_secret: 'other-secret',
    });
    expect(wrongClient).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('an unknown client gets the 401 page, not a redirect', async () => {
    const url = `${drive.authUrl}?client_id=nobody&redirect_uri=${encodeURIComponent(REDIRECT)}&response_type=code&scope=x`;
    const page = await fetch(url, { redirect: 'manual' });
    expect(page.status).toBe(401);
    expect(await page.text()).toContain('invalid_client');
  });
});
