/**
 * The fake Drive's OAuth side through google-auth-library: the token endpoint's grants
 * (refresh_token with its refresh-and-retry, authorization_code, jwt-bearer with a signed
 * assertion) and their refusals as the client surfaces them, and Drive's bearer-token and scope
 * checks; the traffic checked against the spec source like the main file's.
 */
import { generateKeyPairSync } from 'node:crypto';
import { type drive_v3, drive as driveClient } from '@googleapis/drive';
import { gaxios, JWT, OAuth2Client } from 'google-auth-library';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeDrive, SCENE, SCOPES } from '../src/fakes/drive/index.js';
import { driveSpec } from '../src/fakes/drive/spec.js';
import { checkTraffic } from '../src/spec/index.js';
import { type DriveScene, failure, openDriveScene } from './support/drive.js';

let scene: DriveScene;
let fake: FakeDrive;
let oauth: OAuth2Client;
let api: drive_v3.Drive;
const last = (fragment: string) => scene.last(fragment);
const clientWith = (token: string) => scene.clientWith(token);

beforeAll(async () => {
  scene = await openDriveScene();
  ({ fake, oauth, api } = scene);
});

afterAll(async () => {
  await scene.close();
});

describe('fake Drive: OAuth token endpoint through google-auth-library', () => {
  it('refreshes an expired access token with the client id, secret and refresh token', async () => {
    const { data } = await api.files.list({ q: "name contains 'report'" });
    expect(data?.files?.length).toBeGreaterThan(0);
    expect(fake.tokenRequests).toHaveLength(1);
    const form = new URLSearchParams(fake.tokenRequests[0]?.body);
    expect(Object.fromEntries(form)).toMatchObject({
      grant_type: 'refresh_token',
      client_id: 'cid',
      client_secret: 'csecret',
      refresh_token: SCENE.refreshToken,
    });
    const issued = (fake.tokenRequests[0]?.reply?.body as { access_token: string; expires_in: number }) ?? {};
    expect(issued.expires_in).toBe(3599);
    expect(last('/drive/v3/files').headers.authorization).toBe(`Bearer ${issued.access_token}`);
    expect(oauth.credentials.access_token).toBe(issued.access_token);
  });

  it('refreshes once and retries when a token that looks fresh gets 401 (with forceRefreshOnFailure)', async () => {
    // OAuth2Client retries a 401 with a refresh only when it has no access token or is built with
    // forceRefreshOnFailure: a server must set it (DR-01).
    const client = new OAuth2Client({
      clientId: SCENE.clientId,
      clientSecret: SCENE.clientSecret,
      endpoints: { oauth2TokenUrl: fake.tokenUrl },
      forceRefreshOnFailure: true,
    });
    const fresh = fake.state.issueAccessToken();
    client.setCredentials({
      access_token: fresh.token,
      refresh_token: SCENE.refreshToken,
      expiry_date: Date.now() + 3_600_000,
    });
    fake.expireAccessToken(fresh.token);
    const refreshes = fake.tokenRequests.length;
    const files = driveClient({ version: 'v3', auth: client, rootUrl: fake.rootUrl, retry: false }).files;
    expect((await files.get({ fileId: 'SHEET1' })).data.id).toBe('SHEET1');
    expect(fake.tokenRequests.length).toBe(refreshes + 1);
    const tries = fake.api.requests.filter((r) => r.rawPath === '/drive/v3/files/SHEET1');
    expect(tries.map((r) => r.status)).toEqual([401, 200]);
  });

  it('answers invalid_grant for a revoked refresh token, as the client surfaces it', async () => {
    const revoked = fake.state.issueRefreshToken('cid', 'csecret', [SCOPES.drive]);
    fake.state.revoke(revoked.token);
    const client = new OAuth2Client({
      clientId: 'cid',
      clientSecret: 'csecret',
      endpoints: { oauth2TokenUrl: fake.tokenUrl },
    });
    client.setCredentials({ refresh_token: revoked.token });
    const error = (await client.getAccessToken().catch((e: unknown) => e)) as {
      message: string;
      response?: { status: number; data: unknown };
    };
    expect(error.response?.status).toBe(400);
    expect(error.response?.data).toEqual({
      error: 'invalid_grant',
      error_description: 'Token has been expired or revoked.',
    });
    const wrong = new OAuth2Client({
      clientId: 'cid',
      clientSecret: 'nope',
      endpoints: { oauth2TokenUrl: fake.tokenUrl },
    });
    wrong.setCredentials({ refresh_token: SCENE.refreshToken });
    const unauthorised = (await wrong.getAccessToken().catch((e: unknown) => e)) as {
      response?: { status: number; data: { error: string } };
    };
    expect(unauthorised.response?.status).toBe(401);
    expect(unauthorised.response?.data.error).toBe('invalid_client');
  });

  it('exchanges an authorization code for tokens', async () => {
    fake.state.codes.set('TESTCODE', [SCOPES.readonly]);
    const client = new OAuth2Client({
      clientId: 'cid',
      clientSecret: 'csecret',
      redirectUri: 'http://127.0.0.1:5555/cb',
      endpoints: { oauth2TokenUrl: fake.tokenUrl },
    });
    const { tokens } = await client.getToken('TESTCODE');
    expect(tokens.refresh_token).toMatch(/^1\/\/fake-refresh-/);
    expect(tokens.scope).toBe(SCOPES.readonly);
    expect(Object.fromEntries(new URLSearchParams(fake.tokenRequests.at(-1)?.body))).toMatchObject({
      grant_type: 'authorization_code',
      code: 'TESTCODE',
    });
    expect((await failure(client.getToken('TESTCODE'))).message).toMatch(/invalid_grant/);
  });

  it('issues service-account tokens for a signed jwt-bearer assertion (gtoken posts to a fixed URL: redirected)', async () => {
    const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const email = 'robot@project.iam.gserviceaccount.com';
    fake.state.serviceAccounts.set(email, {
      email,
      publicKey: publicKey.export({ type: 'spki', format: 'pem' }) as string,
      delegation: false,
    });
    // gtoken (google-auth-library's JWT) posts to https://oauth2.googleapis.com/token whatever the
    // options say: a transporter that rewrites that URL is the way to point it at the fake.
    const transporter = new gaxios.Gaxios();
    transporter.interceptors.request.add({
      resolved: async (config) => {
        if (String(config.url).startsWith('https://oauth2.googleapis.com/token'))
          config.url = new URL(fake.tokenUrl);
        return config;
      },
    });
    const key = privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
    const jwt = new JWT({ email, key, scopes: [SCOPES.readonly], transporter });
    const { token } = await jwt.getAccessToken();
    expect(fake.state.accessTokens.get(token ?? '')?.scopes).toEqual([SCOPES.readonly]);
    const grant = new URLSearchParams(fake.tokenRequests.at(-1)?.body);
    expect(grant.get('grant_type')).toBe('urn:ietf:params:oauth:grant-type:jwt-bearer');
    const delegated = new JWT({
      email,
      key,
      scopes: [SCOPES.drive],
      subject: 'boss@example.com',
      transporter,
    });
    expect((await failure(delegated.getAccessToken())).message).toMatch(/unauthorized_client/);
    const { privateKey: other } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const forged = new JWT({
      email,
      key: other.export({ type: 'pkcs8', format: 'pem' }) as string,
      scopes: [SCOPES.drive],
      transporter,
    });
    expect((await failure(forged.getAccessToken())).message).toMatch(/invalid_grant/);
  });
});

describe('fake Drive: bearer tokens and scopes', () => {
  it('checks bearer tokens and scopes: expired 401 authError, drive.readonly writes 403 insufficientPermissions', async () => {
    expect(await failure(clientWith(SCENE.expiredToken).files.get({ fileId: 'DOC1' }))).toMatchObject({
      status: 401,
      reasons: ['authError'],
    });
    expect(await failure(clientWith('ya29.unknown').files.list({}))).toMatchObject({
      status: 401,
      reasons: ['authError'],
    });
    const readOnly = clientWith(SCENE.readOnlyToken);
    expect((await readOnly.files.get({ fileId: 'DOC1' })).data.id).toBe('DOC1');
    expect(
      await failure(readOnly.files.update({ fileId: 'DOC1', requestBody: { name: 'x' } })),
    ).toMatchObject({ status: 403, reasons: ['insufficientPermissions'] });
    const res = await fetch(`${fake.rootUrl}drive/v3/files`);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  it("validates all of this file's traffic against the spec source", () => {
    const report = checkTraffic(scene.traffic.read(), { drive: driveSpec() });
    expect(report.problems).toEqual([]);
    expect(report.validated).toBeGreaterThan(10);
  });
});
