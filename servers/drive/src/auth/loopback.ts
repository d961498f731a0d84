/**
 * Google's OAuth flow for installed apps with a loopback redirect
 * (developers.google.com/identity/protocols/oauth2/native-app), shared by `mcp-server-drive auth`
 * and sign-in through the client (sign-in.ts): a one-shot HTTP listener on 127.0.0.1, a consent
 * URL with a random `state` and a PKCE S256 challenge, offline access with `prompt=consent` (so
 * Google returns a refresh token), the code exchanged at the token endpoint with the verifier, and
 * the token saved (atomically, 0600) before the flow resolves. A redirect whose `state` does not
 * match is answered 400 and the flow keeps waiting; Google's `error=` ends it. The listener is
 * closed whenever the flow ends: saved, refused, timed out or cancelled.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { type Credentials, OAuth2Client } from 'google-auth-library';
import { googleFetch, googleTransporter } from '../drive/transport.js';
import { saveToken } from './files.js';

/** Why a flow ended without a token; `message` is one line, without advice on what to run next. */
export class SignInFailed extends Error {
  override name = 'SignInFailed';
}

/** Options of {@link startLoopbackFlow}. */
export interface LoopbackOptions {
  /** An OAuth client built with the client id and secret (and the token endpoint). */
  client: OAuth2Client;
  scope: string;
  /** The listener's port on 127.0.0.1; 0 picks a free one. */
  port: number;
  /** How long the listener waits for the browser's redirect, in ms. */
  timeoutMs: number;
  /** Where the token is saved. */
  tokenFile: string;
}

/** A flow whose listener is up: the URL to open, and its outcome. */
export interface LoopbackFlow {
  /** The consent URL (with `state`, the PKCE challenge and the loopback `redirect_uri`). */
  url: string;
  redirectUri: string;
  /** Resolves with the saved tokens; rejects with a {@link SignInFailed}. */
  done: Promise<Credentials>;
  /** Ends the flow (listener closed); `done` rejects with `reason`. No effect once settled. */
  cancel(reason: string): void;
}

/**
 * Starts the listener and returns the flow (module comment). Errors: SignInFailed when the port
 * cannot be listened on (in use, or another listen error).
 */
export async function startLoopbackFlow(options: LoopbackOptions): Promise<LoopbackFlow> {
  const { client, scope, port } = options;
  const state = randomBytes(16).toString('hex');
  const { codeVerifier, codeChallenge } = await client.generateCodeVerifierAsync();
  const server = http.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        new SignInFailed(
          `cannot listen on 127.0.0.1:${port} for the sign-in redirect (${error.code === 'EADDRINUSE' ? 'the port is in use' : error.message})`,
        ),
      ),
    );
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const redirectUri = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
  const url = client.generateAuthUrl({
    access_type: 'offline',
    prompt: 'consent',
    scope: [scope],
    state,
    redirect_uri: redirectUri,
    code_challenge_method: 'S256' as never,
    ...(codeChallenge ? { code_challenge: codeChallenge } : {}),
  });

  let settle: { resolve: (tokens: Credentials) => void; reject: (error: SignInFailed) => void };
  const done = new Promise<Credentials>((resolve, reject) => {
    settle = { resolve, reject };
  });
  // Handled here too: a flow nobody waits on (cancelled before anyone asked) is no unhandled rejection.
  done.catch(() => {});
  let settled = false;
  const finish = (outcome: { tokens: Credentials } | { error: SignInFailed }) => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    server.close();
    // Replies already written are flushed before their sockets end (`connection: close`).
    setImmediate(() => server.closeAllConnections());
    if ('tokens' in outcome) settle.resolve(outcome.tokens);
    else settle.reject(outcome.error);
  };
  const timer = setTimeout(
    () => finish({ error: new SignInFailed(`no sign-in within ${duration(options.timeoutMs)}`) }),
    options.timeoutMs,
  );
  timer.unref?.();

  server.on('request', (req, res) => {
    const reply = (status: number, body: string) => {
      res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' });
      res.end(`${body}\n`);
    };
    // Any local process can reach this port: a request target that is no URL (`http://[`) is
    // answered, never thrown out of the listener (that would end the server).
    let query: URLSearchParams;
    try {
      query = new URL(req.url ?? '/', redirectUri).searchParams;
    } catch {
      return reply(400, 'Not a sign-in response.');
    }
    if (settled) return reply(410, 'This sign-in has ended.');
    if (!query.has('code') && !query.has('error')) return reply(404, 'Not found');
    if (query.get('state') !== state)
      return reply(400, 'The sign-in response does not match this request (state).');
    const denied = query.get('error');
    if (denied) {
      reply(400, `Google says: ${denied}. Sign in again.`);
      return finish({ error: new SignInFailed(`Google refused the sign-in (${denied})`) });
    }
    client
      .getToken({
        code: query.get('code') ?? '',
        redirect_uri: redirectUri,
        ...(codeVerifier ? { codeVerifier } : {}),
      })
      .then(
        ({ tokens }) => {
          if (settled) return reply(410, 'This sign-in has ended.');
          try {
            saveToken(options.tokenFile, tokens);
          } catch (error) {
            reply(500, 'The sign-in failed: the token could not be saved.');
            return finish({
              error: new SignInFailed(
                `the token could not be saved to ${options.tokenFile}: ${(error as Error).message}`,
              ),
            });
          }
          reply(200, 'Signed in to Google Drive. You can close this tab.');
          finish({ tokens });
        },
        (error: unknown) => {
          reply(500, 'The sign-in failed.');
          const reason = (error as { response?: { data?: { error?: string } } }).response?.data?.error;
          finish({
            error: new SignInFailed(`the token endpoint refused the code${reason ? ` (${reason})` : ''}`),
          });
        },
      );
  });

  return {
    url,
    redirectUri,
    done,
    cancel: (reason) => finish({ error: new SignInFailed(reason) }),
  };
}

/** `ms` as "5 minutes" or "90 s". */
function duration(ms: number): string {
  return ms >= 60_000 && ms % 60_000 === 0 ? `${ms / 60_000} minutes` : `${Math.round(ms / 1000)} s`;
}

/** The OAuth client the flow exchanges its code with: the keys, the token and consent endpoints. */
export function oauthClient(
  keys: { clientId: string; clientSecret: string },
  tokenUrl: string,
  authUrl: string,
): OAuth2Client {
  return new OAuth2Client({
    clientId: keys.clientId,
    clientSecret: keys.clientSecret,
    endpoints: { oauth2TokenUrl: tokenUrl, oauth2AuthBaseUrl: authUrl },
    transporter: googleTransporter(googleFetch(tokenUrl, 30_000, 1024 * 1024)),
  });
}
