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
  sleep,
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
      verification_uri: 'https://v/',
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

/** Collects the process warnings of type `name` emitted while `run` runs (and one tick after). */
async function warningsDuring(name: string, run: () => Promise<unknown>): Promise<Error[]> {
  const seen: Error[] = [];
  const listener = (w: Error) => {
    if (w.name === name) seen.push(w);
  };
  process.on('warning', listener);
  try {
    await run();
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    process.off('warning', listener);
  }
  return seen;
}

describe('hostile intervals (RFC 8628 §3.5; Node timers cap at 2^31-1 ms)', () => {
  it('an interval of 1e9 s polls at most once before expires_in, with no TimeoutOverflowWarning', async () => {
    const { fetch, sent } = scripted([]);
    let outcome: unknown;
    const warnings = await warningsDuring('TimeoutOverflowWarning', async () => {
      outcome = await pollDeviceToken({
        url: 'u',
        code: { ...CODE, interval: 1e9, expires_in: 2 },
        clientId: 'c',
        timeoutMs: 5000,
        fetch,
      }).catch((e: unknown) => e);
    });
    expect(outcome).toMatchObject({ code: 'timeout' });
    expect(sent.length).toBeLessThanOrEqual(1);
    expect(warnings).toEqual([]);
  });

  it('a slow_down carrying interval 1e9 does not turn into a fast poll', async () => {
    const { fetch, sent } = scripted([{ error: 'slow_down', interval: 1e9 }]);
    const slowed: number[] = [];
    let outcome: unknown;
    const warnings = await warningsDuring('TimeoutOverflowWarning', async () => {
      outcome = await pollDeviceToken({
        url: 'u',
        code: { ...CODE, interval: 1, expires_in: 3 },
        clientId: 'c',
        timeoutMs: 5000,
        fetch,
        onSlowDown: (s) => slowed.push(s),
      }).catch((e: unknown) => e);
    });
    expect(outcome).toMatchObject({ code: 'timeout' });
    expect(sent.length).toBeLessThanOrEqual(2);
    expect(slowed).toEqual([300]);
    expect(warnings).toEqual([]);
  });

  it('requestDeviceCode clamps the interval to 300 s', async () => {
    const { fetch } = scripted([
      { device_code: 'd', user_code: 'U-1', verification_uri: 'https://v', expires_in: 900, interval: 1e9 },
    ]);
    const code = await requestDeviceCode('https://v/code', '', { clientId: 'c', timeoutMs: 5000, fetch });
    expect(code.interval).toBe(300);
  });

  it('sleep waits a delay over 2^31-1 ms in chunks (no overflow to 1 ms) and still aborts', async () => {
    const stop = new AbortController();
    let settled = false;
    const warnings = await warningsDuring('TimeoutOverflowWarning', async () => {
      const waiting = sleep(2 ** 31 + 1000, stop.signal).finally(() => {
        settled = true;
      });
      // Several macrotask turns: an overflowed timer (1 ms) would have fired by now on any load.
      for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(settled).toBe(false);
      stop.abort(new Error('stop'));
      await expect(waiting).rejects.toThrow('stop');
    });
    expect(warnings).toEqual([]);
  });
});

describe('untrusted sign-in answers', () => {
  const answer = (extra: Record<string, unknown>) => ({
    device_code: 'd',
    user_code: 'U-1',
    verification_uri: 'https://v/device',
    expires_in: 900,
    ...extra,
  });

  it('refuses a verification_uri that is not https (http only on loopback)', async () => {
    for (const uri of [
      'javascript:alert(1)',
      'http://evil.example/device',
      'data:text/html,x',
      'not a url',
    ]) {
      const { fetch } = scripted([answer({ verification_uri: uri })]);
      await expect(
        requestDeviceCode('https://v/code', '', { clientId: 'c', timeoutMs: 5000, fetch }),
      ).rejects.toMatchObject({ code: 'invalid_response' });
    }
    const local = scripted([answer({ verification_uri: 'http://127.0.0.1:9/device' })]);
    const code = await requestDeviceCode('https://v/code', '', {
      clientId: 'c',
      timeoutMs: 5000,
      fetch: local.fetch,
    });
    expect(code.verification_uri).toBe('http://127.0.0.1:9/device');
  });

  it('drops an unsafe verification_uri_complete and keeps the safe verification_uri', async () => {
    const { fetch } = scripted([answer({ verification_uri_complete: 'javascript:alert(1)' })]);
    const code = await requestDeviceCode('https://v/code', '', { clientId: 'c', timeoutMs: 5000, fetch });
    expect(code.verification_uri_complete).toBeUndefined();
    expect(code.verification_uri).toBe('https://v/device');
  });

  it('refuses a user_code with bidi or control characters', async () => {
    for (const user_code of ['AB\u202eCD', 'AB\nCD', 'AB\u0000', 'X'.repeat(65)]) {
      const { fetch } = scripted([answer({ user_code })]);
      await expect(
        requestDeviceCode('https://v/code', '', { clientId: 'c', timeoutMs: 5000, fetch }),
      ).rejects.toMatchObject({ code: 'invalid_response' });
    }
  });

  it('sanitises and caps the vendor error text', async () => {
    const { fetch } = scripted([
      { error: 'bad\u202e\u0007code', error_description: `x\u202e${'y'.repeat(60_000)}` },
    ]);
    const failure = (await refreshAccessToken('https://gl/oauth/token', 'r1', {
      clientId: 'c',
      timeoutMs: 5000,
      fetch,
    }).catch((e: unknown) => e)) as DeviceFlowError;
    expect(failure).toBeInstanceOf(DeviceFlowError);
    for (const text of [failure.message, failure.code]) {
      expect(text).not.toContain('\u202e');
      expect(text).not.toContain('\u0007');
    }
    expect(failure.message.length).toBeLessThan(700);
  });
});

describe('the HTTP exchange', () => {
  it('refuses redirects and reads at most 64 KiB of an endless body', async () => {
    let pulls = 0;
    const inits: RequestInit[] = [];
    const fetchImpl = (async (_url: string, init: RequestInit) => {
      inits.push(init);
      const chunk = new TextEncoder().encode('{"a":"'.padEnd(16 * 1024, 'x'));
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          pulls++;
          controller.enqueue(chunk);
        },
      });
      return new Response(body, { status: 200 });
    }) as unknown as typeof fetch;
    await expect(
      requestDeviceCode('https://v/code', '', { clientId: 'c', timeoutMs: 5000, fetch: fetchImpl }),
    ).rejects.toMatchObject({ code: 'invalid_response' });
    expect(inits[0]?.redirect).toBe('error');
    expect(pulls).toBeLessThanOrEqual(8);
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
