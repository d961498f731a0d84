import { describe, expect, it, vi } from 'vitest';
import { aboutDelay, parseRateWindows, QuotaExhausted, RateLimitWindows } from '../src/upstream/index.js';

const FREE = {
  'x-ratelimit-limit': '1, 15000',
  'x-ratelimit-policy': '1;w=1, 15000;w=2592000',
  'x-ratelimit-remaining': '0, 14999',
  'x-ratelimit-reset': '1, 1419704',
};

describe('parseRateWindows (Brave / IETF list form)', () => {
  it('reads one window per list entry, lengths from the policy, resets in seconds', () => {
    expect(parseRateWindows(FREE, 1_000_000)).toEqual([
      { limit: 1, windowMs: 1000, remaining: 0, resetAt: 1_001_000 },
      { limit: 15000, windowMs: 2_592_000_000, remaining: 14999, resetAt: 1_000_000 + 1_419_704_000 },
    ]);
  });

  it('without a policy, the first window is a second and later ones a month; no limit header, no windows', () => {
    const w = parseRateWindows({ 'x-ratelimit-limit': '50, 20000000' }, 0);
    expect(w.map((x) => x.windowMs)).toEqual([1000, 30 * 86_400_000]);
    expect(parseRateWindows({}, 0)).toEqual([]);
  });
});

describe('RateLimitWindows', () => {
  it('sends one probe until the plan is known, then spaces starts by the shortest window', async () => {
    const gate = new RateLimitWindows({ service: 'API', maxWaitMs: 10_000, marginMs: 0 });
    await gate.pass();
    let second = false;
    const waiting = gate.pass().then(() => {
      second = true;
    });
    await new Promise((r) => setTimeout(r, 20));
    expect(second).toBe(false);
    gate.observe(200, { ...FREE, 'x-ratelimit-limit': '50, 15000', 'x-ratelimit-remaining': '49, 14999' });
    await waiting;
    const started = Date.now();
    await gate.pass();
    await gate.pass();
    expect(Date.now() - started).toBeGreaterThanOrEqual(35);
  });

  it('the margin is at most a tenth of the spacing: 1/s keeps its 50 ms, 50/s is paced near its limit', async () => {
    // Fake clock and timers: ms from one paced start to the next under a `perSecond` plan.
    const spacing = async (perSecond: number) => {
      vi.useFakeTimers({ now: 0 });
      try {
        const gate = new RateLimitWindows({ service: 'API', maxWaitMs: 10_000, now: () => Date.now() });
        await gate.pass();
        gate.observe(200, {
          'x-ratelimit-limit': `${perSecond}, 15000`,
          'x-ratelimit-policy': `${perSecond};w=1, 15000;w=2592000`,
          'x-ratelimit-remaining': `${perSecond}, 14999`,
          'x-ratelimit-reset': '1, 1419704',
        });
        await gate.pass();
        let done = false;
        const second = gate.pass().then(() => {
          done = true;
        });
        let ms = 0;
        while (!done && ms < 5_000) {
          await vi.advanceTimersByTimeAsync(1);
          ms++;
        }
        await second;
        return ms;
      } finally {
        vi.useRealTimers();
      }
    };
    // 1000 ms + min(50, 100) = 1050 ms.
    expect(await spacing(1)).toBe(1050);
    // 20 ms + min(50, 2) = 22 ms (the old fixed 50 ms margin made it 70 ms, ~14/s).
    expect(await spacing(50)).toBeLessThanOrEqual(22);
    expect(await spacing(50)).toBeGreaterThanOrEqual(21);
  });

  it('a spent monthly window is refused at once with when it resets', async () => {
    const gate = new RateLimitWindows({ service: 'Brave Search API', maxWaitMs: 10_000 });
    await gate.pass();
    gate.observe(429, { ...FREE, 'x-ratelimit-remaining': '1, 0', 'x-ratelimit-reset': '0, 86400' });
    await expect(gate.pass()).rejects.toThrow(QuotaExhausted);
    await expect(gate.pass()).rejects.toThrow(
      /monthly quota of the plan \(15000 requests\) is spent; it resets in about a day/,
    );
    expect(gate.spent()).toBeInstanceOf(QuotaExhausted);
  });

  it('aboutDelay words waits for people', () => {
    expect([
      aboutDelay(3_000),
      aboutDelay(600_000),
      aboutDelay(3_600_000),
      aboutDelay(3 * 86_400_000),
    ]).toEqual(['3 s', 'about 10 min', 'about an hour', 'about 3 days']);
  });
});
