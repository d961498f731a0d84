/**
 * The RFC 8628 device-flow client (upstream/device-flow.ts) against a scripted token endpoint (an
 * injected `fetch`): the fields read, vendor errors, the poll's outcomes and cancellation. The
 * servers' own tests (GitHub's sign-in) run it against the fake vendor, slow_down included.
 */
import {
  DEVICE_CODE_GRANT,
  type DeviceCode,
  DeviceFlowError,
  pollDeviceToken,
  refreshAccessToken,
  requestDeviceCode,
} from '@refmcp/shared';
import { describe, expect, it } from 'vitest';

/** A fetch answering each call with the next of `bodies` (HTTP 200 JSON, or raw text); the forms sent. */
function scripted(bodies: (Record<string, unknown> | string)[]) {
  const sent: URLSearchParams[] = [];
  const fetchImpl = (async (_url: string, init: RequestInit) => {
    sent.push(new URLSearchParams(String(init.body)));
    const next = bodies.shift() ?? { error: 'authorization_pending' };
    return new Response(typeof next === 'string' ? next : JSON.stringify(next), { status: 200 });
  }) as unknown as typeof fetch;
  return { fetch: fetchImpl, sent };
}

const CODE: DeviceCode = {
  device_code: 'dev',
  user_code: 'ABCD-EFGH',
  verification_uri: 'https://example.test/device',
  expires_in: 60,
  interval: 0,
};

describe('requestDeviceCode', () => {
  it('reads the RFC 8628 §3.2 fields, with interval 5 when absent, and sends client_id and scope', async () => {
    const { fetch, sent } = scripted([
      { device_code: 'd', user_code: 'U-1', verification_uri: 'https://v', expires_in: 900 },
    ]);
    const code = await requestDeviceCode('https://v/code', 'repo read:org', {
      clientId: 'c',
      timeoutMs: 5000,
      fetch,
    });
    expect(code).toEqual({
      device_code: 'd',
      user_code: 'U-1',
      verification_uri: 'https://v',
      expires_in: 900,
      interval: 5,
    });
    expect(Object.fromEntries(sent[0] ?? [])).toEqual({ client_id: 'c', scope: 'repo read:org' });
  });

  it('a vendor error or a malformed answer is a DeviceFlowError naming it', async () => {
    const disabled = scripted([
      { error: 'device_flow_disabled', error_description: 'Device Flow must be enabled' },
    ]);
    await expect(
      requestDeviceCode('https://v/code', '', { clientId: 'c', timeoutMs: 5000, fetch: disabled.fetch }),
    ).rejects.toMatchObject({
      code: 'device_flow_disabled',
      message: 'device_flow_disabled: Device Flow must be enabled',
    });
    const html = scripted(['<html>']);
    await expect(
      requestDeviceCode('https://v/code', '', { clientId: 'c', timeoutMs: 5000, fetch: html.fetch }),
    ).rejects.toBeInstanceOf(DeviceFlowError);
  });
});

describe('pollDeviceToken', () => {
  it('polls through authorization_pending with the device_code grant and resolves with the token', async () => {
    const { fetch, sent } = scripted([
      { error: 'authorization_pending' },
      { access_token: 'tok', token_type: 'bearer', scope: 'repo' },
    ]);
    const token = await pollDeviceToken({
      url: 'https://v/token',
      code: CODE,
      clientId: 'c',
      timeoutMs: 5000,
      fetch,
    });
    expect(token).toEqual({ access_token: 'tok', token_type: 'bearer', scope: 'repo' });
    expect(sent).toHaveLength(2);
    expect(Object.fromEntries(sent[0] ?? [])).toEqual({
      client_id: 'c',
      device_code: 'dev',
      grant_type: DEVICE_CODE_GRANT,
    });
  });

  it('access_denied and expired_token end the poll with their codes', async () => {
    const denied = scripted([{ error: 'access_denied' }]);
    await expect(
      pollDeviceToken({ url: 'u', code: CODE, clientId: 'c', timeoutMs: 5000, fetch: denied.fetch }),
    ).rejects.toMatchObject({
      code: 'access_denied',
    });
    const expired = scripted([{ error: 'expired_token' }]);
    await expect(
      pollDeviceToken({ url: 'u', code: CODE, clientId: 'c', timeoutMs: 5000, fetch: expired.fetch }),
    ).rejects.toMatchObject({
      code: 'expired_token',
      message: 'the code ABCD-EFGH expired before it was approved',
    });
  });

  it('an aborted signal ends the wait with its reason, before any further poll', async () => {
    const { fetch, sent } = scripted([]);
    const stop = new AbortController();
    const polling = pollDeviceToken({
      url: 'u',
      code: { ...CODE, interval: 30 },
      clientId: 'c',
      timeoutMs: 5000,
      fetch,
      signal: stop.signal,
    });
    stop.abort(new Error('the user declined'));
    await expect(polling).rejects.toThrow('the user declined');
    expect(sent).toEqual([]);
  });
});

describe('refreshAccessToken', () => {
  it('sends grant_type=refresh_token with client_id and reads the new pair (RFC 6749 §6)', async () => {
    const { fetch, sent } = scripted([
      { access_token: 'a2', refresh_token: 'r2', expires_in: 7200, token_type: 'Bearer', scope: 'api' },
    ]);
    const token = await refreshAccessToken('https://gl/oauth/token', 'r1', {
      clientId: 'c',
      timeoutMs: 5000,
      fetch,
    });
    expect(token).toEqual({
      access_token: 'a2',
      refresh_token: 'r2',
      expires_in: 7200,
      token_type: 'Bearer',
      scope: 'api',
    });
    expect(Object.fromEntries(sent[0] ?? [])).toEqual({
      client_id: 'c',
      grant_type: 'refresh_token',
      refresh_token: 'r1',
    });
  });

  it('a refused refresh token is a DeviceFlowError with the vendor code', async () => {
    const { fetch } = scripted([
      { error: 'invalid_grant', error_description: 'The provided authorization grant is invalid.' },
    ]);
    const failure = await refreshAccessToken('https://gl/oauth/token', 'r1', {
      clientId: 'c',
      timeoutMs: 5000,
      fetch,
    }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(DeviceFlowError);
    expect((failure as DeviceFlowError).code).toBe('invalid_grant');
  });
});
