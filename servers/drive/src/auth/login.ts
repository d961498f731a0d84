/**
 * `mcp-server-drive auth`: Google's loopback OAuth flow (loopback.ts: `state`, PKCE, the listener on
 * 127.0.0.1) with the consent URL printed on stderr — stdout stays empty, as hosts may run this
 * command too — the code exchanged with the client id and secret from GDRIVE_OAUTH_PATH, and the
 * token saved to GDRIVE_CREDENTIALS_PATH (atomically, 0600).
 */
import { parseArgs } from 'node:util';
import { intFlag, splitList } from '@refmcp/shared/server';
import { endpoints, exitWith, scopeFor } from '../config.js';
import { CredentialsError, readOAuthKeys } from './files.js';
import { oauthClient, SignInFailed, startLoopbackFlow } from './loopback.js';
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
  const { tokenUrl, authUrl } = endpoints(env);
  const toolsets = splitList(values.toolsets);
  const scope = scopeFor({
    readOnly: values['read-only'] === true,
    ...(toolsets ? { toolsets } : {}),
    excludeTools: [],
  });
  const file = tokenPath(env);
  const again = '; run `mcp-server-drive auth` again';
  let flow: Awaited<ReturnType<typeof startLoopbackFlow>>;
  try {
    flow = await startLoopbackFlow({
      client: oauthClient(keys, tokenUrl, authUrl),
      scope,
      port,
      timeoutMs: WAIT_MS,
      tokenFile: file,
    });
  } catch (error) {
    if (error instanceof SignInFailed)
      exitWith(`${error.message}; pick another --port, or leave it out for a free one`);
    throw error;
  }
  process.stderr.write(
    `Open this URL in a browser and allow access to Google Drive (${scope.split('/').pop()}):\n\n${flow.url}\n\nWaiting for the redirect to ${flow.redirectUri} …\n`,
  );
  try {
    await flow.done;
  } catch (error) {
    exitWith(`${(error as Error).message}${again}`);
  }
  process.stderr.write(`Saved the token to ${file}.\n`);
}
