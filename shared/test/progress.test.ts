import { describe, expect, it } from 'vitest';
import { PROGRESS_INTERVAL_MS, progressReporter } from '../src/server/progress.js';

describe('progressReporter', () => {
  it('none without a token', () => {
    expect(
      progressReporter(
        undefined,
        async () => {},
        () => false,
      ),
    ).toBeUndefined();
  });

  it('sends the first report at once, then at most one per interval, only increasing values, none once finished', () => {
    const sent: unknown[] = [];
    let now = 1000;
    let finished = false;
    const p = progressReporter(
      't1',
      async (params) => void sent.push(params),
      () => finished,
      () => now,
    );
    p?.report(5, 100, 'five');
    p?.report(6); // too soon
    now += PROGRESS_INTERVAL_MS;
    p?.report(5); // not above the last sent
    p?.report(7, 100);
    now += PROGRESS_INTERVAL_MS;
    finished = true;
    p?.report(9);
    expect(sent).toEqual([
      { progressToken: 't1', progress: 5, total: 100, message: 'five' },
      { progressToken: 't1', progress: 7, total: 100 },
    ]);
  });

  it('a failing send is not the caller’s error', () => {
    const p = progressReporter(
      1,
      async () => Promise.reject(new Error('gone')),
      () => false,
    );
    expect(() => p?.report(1)).not.toThrow();
  });
});
