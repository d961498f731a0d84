/**
 * `mcp-server-drive auth`: Google's OAuth flow for installed apps with a loopback redirect
 * (developers.google.com/identity/protocols/oauth2/native-app): a one-shot HTTP listener on
 * 127.0.0.1, the consent URL (with `state` and a PKCE challenge) printed on stderr — stdout stays
 * empty, as hosts may run this command too — the code exchanged at the token endpoint with the
 * client id and secret from GDRIVE_OAUTH_PATH, and the token saved to GDRIVE_CREDENTIALS_PATH
 * (atomically, 0600). Offline access with `prompt=consent`, so Google returns a refresh token.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { parseArgs } from 'node:util';
import { intFlag, splitList } from '@refmcp/shared/server';
import { OAuth2Client } from 'google-auth-library';
import { endpoints, exitWith, scopeFor } from '../config.js';
import { googleFetch, googleTransporter } from '../drive/transport.js';
import { CredentialsError, readOAuthKeys, saveToken } from './files.js';
import { oauthKeysPath, tokenPath } from './paths.js';

/** How long the listener waits for the browser, in ms. */
const WAIT_MS = 5 * 60_000;

const USAGE = `Usage: mcp-server-drive auth [--toolsets files,files_write,sharing|all] [--read-only] [--port N]

Signs in with Google in a browser and saves the token to GDRIVE_CREDENTIALS_PATH. The scope is
drive.readonly unless a write toolset is named (then drive). Run it again to change the scope.`;

/** Runs the flow (module comment) for `argv` (after `auth`); exits 0 when the token is saved. */
export async function runAuth(argv: string[], env: NodeJS.ProcessEnv): Promise<void> {
  let values: { toolsets?: string; 'read-only'?: boolean; port?: string; help?: boolean };
  let port: number;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        toolsets: { type: 'string' },
        'read-only': { type: 'boolean' },
        port: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
    port = intFlag(values, 'port', 0, { min: 0, max: 65535 });
  } catch (error) {
    process.stderr.write(`mcp-server-drive auth: ${(error as Error).message}\n\n${USAGE}\n`);
    process.exit(2);
  }
  if (values.help) {
    process.stderr.write(`${USAGE}\n`);
    process.exit(0);
  }
  const keysFile = oauthKeysPath(env);
  let keys: ReturnType<typeof readOAuthKeys>;
  try {
    keys = readOAuthKeys(keysFile);
  } catch (error) {
    if (error instanceof CredentialsError) exitWith(error.message);
    throw error;
  }
  const { tokenUrl } = endpoints(env);
  const toolsets = splitList(values.toolsets);
  const scope = scopeFor({
    readOnly: values['read-only'] === true,
    ...(toolsets ? { toolsets } : {}),
    excludeTools: [],
  });
  const client = new OAuth2Client({
    clientId: keys.clientId,
    clientSecret: keys.clientSecret,
    endpoints: { oauth2TokenUrl: tokenUrl },
    transporter: googleTransporter(googleFetch(tokenUrl, 30_000, 1024 * 1024)),
  });
  const state = randomBytes(16).toString('hex');
  const { codeVerifier, codeChallenge } = await client.generateCodeVerifierAsync();
  const file = tokenPath(env);

  const server = http.createServer();
  await new Promise<void>((resolve) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      exitWith(
        `cannot listen on 127.0.0.1:${port} for the sign-in redirect (${error.code === 'EADDRINUSE' ? 'the port is in use' : error.message}); pick another --port, or leave it out for a free one`,
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
  process.stderr.write(
    `Open this URL in a browser and allow access to Google Drive (${scope.split('/').pop()}):\n\n${url}\n\nWaiting for the redirect to ${redirectUri} …\n`,
  );

  const timer = setTimeout(
    () => exitWith(`no sign-in within ${WAIT_MS / 60_000} minutes; run \`mcp-server-drive auth\` again`),
    WAIT_MS,
  );
  server.on('request', (req, res) => {
    const query = new URL(req.url ?? '/', redirectUri).searchParams;
    const reply = (status: number, body: string) => {
      res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' });
      res.end(`${body}\n`);
    };
    if (!query.has('code') && !query.has('error')) return reply(404, 'Not found');
    if (query.get('state') !== state)
      return reply(400, 'The sign-in response does not match this request (state).');
    const denied = query.get('error');
    if (denied) {
      reply(400, `Google says: ${denied}. Run mcp-server-drive auth again.`);
      exitWith(`Google refused the sign-in (${denied}); run \`mcp-server-drive auth\` again`);
    }
    client
      .getToken({
        code: query.get('code') ?? '',
        redirect_uri: redirectUri,
        ...(codeVerifier ? { codeVerifier } : {}),
      })
      .then(({ tokens }) => {
        saveToken(file, tokens);
        reply(200, 'Signed in to Google Drive. You can close this tab.');
        clearTimeout(timer);
        process.stderr.write(`Saved the token to ${file}.\n`);
        server.close();
        server.closeAllConnections();
      })
      .catch((error: unknown) => {
        reply(500, 'The sign-in failed; see the terminal.');
        const reason = (error as { response?: { data?: { error?: string } } }).response?.data?.error;
        exitWith(
          `the token endpoint refused the code${reason ? ` (${reason})` : ''}; run \`mcp-server-drive auth\` again`,
        );
      });
  });
}
