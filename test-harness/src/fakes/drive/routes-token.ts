// The fake OAuth 2.0 token endpoint (`POST /token`, Google's https://oauth2.googleapis.com/token):
// `refresh_token` (a revoked token → 400 invalid_grant), `authorization_code` (codes the test
// registered, or the consent page minted: then bound to its client, redirect URI and PKCE challenge) and `urn:ietf:params:oauth:grant-type:jwt-bearer` for service accounts (the
// assertion's iss, aud, exp, scope and sub checked; its RS256 signature too when the account has a
// public key). Errors are RFC 6749 §5.2 bodies as Google sends them.
import { createHash, createVerify } from 'node:crypto';
import type { FakeReply } from '../../fake-api/reply.js';
import { Reply } from '../../fake-api/reply.js';
import type { FakeRequest } from '../../fake-api/server.js';
import type { FakeDrive } from './fake-drive.js';

const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

function oauthError(status: 400 | 401, error: string, description: string): never {
  throw new Reply({ status, body: { error, error_description: description } });
}

/** The request's form (or JSON) parameters. */
function formOf(req: FakeRequest): URLSearchParams {
  const type = req.headers['content-type'] ?? '';
  if (type.includes('application/json')) {
    try {
      return new URLSearchParams(JSON.parse(req.body) as Record<string, string>);
    } catch {
      oauthError(400, 'invalid_request', 'Invalid JSON payload received.');
    }
  }
  return new URLSearchParams(req.body);
}

/** client_id and client_secret from the form or HTTP Basic. */
function clientOf(req: FakeRequest, form: URLSearchParams): { id?: string; secret?: string } {
  const basic = /^Basic\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1];
  if (basic) {
    const [id, secret] = Buffer.from(basic, 'base64').toString('utf8').split(':');
    return {
      ...(id ? { id: decodeURIComponent(id) } : {}),
      ...(secret ? { secret: decodeURIComponent(secret) } : {}),
    };
  }
  return {
    ...(form.get('client_id') ? { id: form.get('client_id') as string } : {}),
    ...(form.get('client_secret') ? { secret: form.get('client_secret') as string } : {}),
  };
}

function checkClient(drive: FakeDrive, client: { id?: string; secret?: string }): string {
  if (!client.id || drive.state.clients.get(client.id) !== client.secret)
    oauthError(401, 'invalid_client', 'Unauthorized');
  return client.id;
}

function issue(drive: FakeDrive, scopes: string[], subject?: string, refreshToken?: string): FakeReply {
  const token = drive.state.issueAccessToken({ scopes, ...(subject ? { subject } : {}) });
  return {
    headers: { 'cache-control': 'no-cache, no-store, max-age=0, must-revalidate', pragma: 'no-cache' },
    body: {
      access_token: token.token,
      expires_in: drive.state.tokenLifetime,
      scope: scopes.join(' '),
      token_type: 'Bearer',
      ...(refreshToken ? { refresh_token: refreshToken } : {}),
    },
  };
}

function decodePart(part: string | undefined): Record<string, unknown> {
  try {
    return JSON.parse(Buffer.from(part ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
  } catch {
    oauthError(400, 'invalid_grant', 'Invalid JWT: malformed assertion.');
  }
}

function jwtBearer(drive: FakeDrive, form: URLSearchParams): FakeReply {
  const assertion = form.get('assertion') ?? '';
  const [head, payload, signature] = assertion.split('.');
  if (!head || !payload || signature === undefined)
    oauthError(400, 'invalid_grant', 'Invalid JWT: malformed assertion.');
  const header = decodePart(head);
  const claims = decodePart(payload);
  const account = drive.state.serviceAccounts.get(String(claims.iss));
  if (!account) oauthError(400, 'invalid_grant', 'Invalid grant: account not found');
  if (account.publicKey) {
    const ok =
      header.alg === 'RS256' &&
      createVerify('RSA-SHA256')
        .update(`${head}.${payload}`)
        .verify(account.publicKey, Buffer.from(signature, 'base64url'));
    if (!ok) oauthError(400, 'invalid_grant', 'Invalid JWT Signature.');
  }
  const now = Date.now() / 1000;
  if (claims.aud !== drive.tokenUrl && claims.aud !== 'https://oauth2.googleapis.com/token')
    oauthError(400, 'invalid_grant', 'Invalid JWT: Failed audience check.');
  if (typeof claims.exp !== 'number' || claims.exp < now || claims.exp - now > 3600 + 300)
    oauthError(
      400,
      'invalid_grant',
      'Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe.',
    );
  const scopes = String(claims.scope ?? '')
    .split(' ')
    .filter(Boolean);
  if (!scopes.length) oauthError(400, 'invalid_scope', 'Empty or missing scope not allowed.');
  if (claims.sub !== undefined && claims.sub !== claims.iss && !account.delegation)
    oauthError(
      401,
      'unauthorized_client',
      'Client is unauthorized to retrieve access tokens using this method, or client not authorized for any of the scopes requested.',
    );
  return issue(drive, scopes, typeof claims.sub === 'string' ? claims.sub : account.email);
}

/** Registers `POST /token`. */
export function registerTokenRoutes(drive: FakeDrive): void {
  const { state } = drive;
  drive.route('POST', '/token', (req) => {
    const form = formOf(req);
    const grant = form.get('grant_type');
    if (grant === 'refresh_token') {
      const clientId = checkClient(drive, clientOf(req, form));
      const record = state.refreshTokens.get(form.get('refresh_token') ?? '');
      if (!record || record.revoked || record.clientId !== clientId)
        oauthError(400, 'invalid_grant', 'Token has been expired or revoked.');
      return issue(drive, record.scopes);
    }
    if (grant === 'authorization_code') {
      const clientId = checkClient(drive, clientOf(req, form));
      const scopes = state.codes.get(form.get('code') ?? '');
      if (!scopes) oauthError(400, 'invalid_grant', 'Malformed auth code.');
      if (!form.get('redirect_uri')) oauthError(400, 'invalid_request', 'Missing parameter: redirect_uri');
      const grant = state.codeGrants.get(form.get('code') as string);
      if (grant) {
        // RFC 7636 §4.6: BASE64URL(SHA256(code_verifier)) must equal the challenge; RFC 6749 §4.1.3.
        if (grant.clientId !== clientId) oauthError(400, 'invalid_grant', 'Malformed auth code.');
        if (grant.redirectUri !== form.get('redirect_uri'))
          oauthError(400, 'redirect_uri_mismatch', 'Bad Request');
        const verifier = form.get('code_verifier') ?? '';
        if (grant.challenge && createHash('sha256').update(verifier).digest('base64url') !== grant.challenge)
          oauthError(400, 'invalid_grant', 'Invalid code verifier.');
        state.codeGrants.delete(form.get('code') as string);
      }
      state.codes.delete(form.get('code') as string);
      const refresh = state.issueRefreshToken(clientId, state.clients.get(clientId) as string, scopes);
      return issue(drive, scopes, undefined, refresh.token);
    }
    if (grant === JWT_BEARER) return jwtBearer(drive, form);
    oauthError(400, 'unsupported_grant_type', `Invalid grant_type: ${grant ?? ''}`);
  });
}
