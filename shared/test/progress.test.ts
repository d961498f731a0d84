import { describe, expect, it } from 'vitest';
import {
  countedHeartbeat,
  PROGRESS_INTERVAL_MS,
  type Progress,
  progressReporter,
} from '../src/server/progress.js';

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

describe('countedHeartbeat', () => {
  it('nothing without progress', () => {
    expect(countedHeartbeat(undefined, 3, 'logs read')).toBeUndefined();
  });

  it('reports at once, then names the units done of the total at each tick; stop ends it', () => {
    const seen: [number, string | undefined][] = [];
    const progress: Progress = { report: (done, _total, message) => void seen.push([done, message]) };
    const beat = countedHeartbeat(progress, 2, 'logs read', 60_000);
    beat?.tick();
    beat?.tick();
    beat?.stop();
    expect(seen.map(([done]) => done)).toEqual([0, 1, 2]);
    expect(seen.map(([, message]) => message?.replace(/\d+ s$/, 'N s'))).toEqual([
      '0 of 2 logs read, N s',
      '1 of 2 logs read, N s',
      '2 of 2 logs read, N s',
    ]);
  });
});
