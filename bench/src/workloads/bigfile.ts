/**
 * Metric 6: the big file. A 20-line tail (ours no slower), and a whole read with no head/tail
 * (ours: a clear refusal in < 100 ms under 100 MiB RSS; the official reads it all and fails).
 * A server's error answer here is a result to print, not a failure of the bench.
 */
import { bigFile, bigFilePath } from '../data.js';
import { errorText, median, now } from '../measure.js';
import { row } from '../report.js';
import { resultText, withSession } from '../servers.js';
import {
  alternate,
  type Context,
  callOk,
  cellOf,
  MiB,
  preview,
  rawCallOk,
  rawResult,
  type WorkloadResult,
} from './common.js';

const TAIL_LINES = 20;

interface TailRun {
  ms: number;
  lines: number;
  head: string;
}

interface WholeRun {
  ms: number;
  peakRss?: number;
  /** The server answered with isError or a JSON-RPC error. */
  refused: boolean;
  answer: string;
  bytes: number;
}

export async function bigFileWorkload(ctx: Context): Promise<WorkloadResult> {
  const { sizes } = ctx;
  const dir = await bigFile(ctx.dataRoot, sizes, ctx.log);
  const file = bigFilePath(dir);
  const timeout = sizes.callTimeoutMs;
  const tailArgs = { path: file, tail: TAIL_LINES };
  const wholeArgs = { path: file };

  const tails = await alternate(ctx, sizes.tailReps, `read_text_file tail ${TAIL_LINES}`, (server) =>
    withSession(server, [dir], timeout, async (session): Promise<TailRun> => {
      const first = await callOk(session, 'read_text_file', tailArgs, timeout);
      const times: number[] = [];
      for (let i = 0; i < sizes.tailCalls; i++) {
        const t0 = now();
        await rawCallOk(session, 'read_text_file', tailArgs, timeout);
        times.push(now() - t0);
      }
      const text = resultText(first);
      return { ms: median(times), lines: text.trimEnd().split('\n').length, head: preview(text) };
    }),
  );

  const wholes = await alternate(ctx, 1, 'read_text_file whole', (server) =>
    withSession(server, [dir], timeout, async (session): Promise<WholeRun> => {
      const t0 = now();
      let refused: boolean;
      let answer: string;
      let bytes = 0;
      try {
        const result = await rawResult(session, 'read_text_file', wholeArgs, timeout);
        const text = resultText(result);
        refused = result.isError === true;
        bytes = Buffer.byteLength(text, 'utf8');
        answer = `${refused ? '[isError] ' : ''}${preview(text)}`;
      } catch (error) {
        refused = true;
        answer = `[JSON-RPC error] ${preview(errorText(error))}`;
      }
      const ms = now() - t0;
      const peakRss = await session.peakRss();
      if (peakRss === undefined && answer.startsWith('[JSON-RPC error]')) {
        // No /proc entry: the server died on the call; that is no refusal.
        refused = false;
        answer = answer.replace('[JSON-RPC error]', '[server died]');
      }
      return { ms, peakRss, refused, answer, bytes };
    }),
  );

  const ours = wholes.ours.results[0];
  const notes: string[] = [];
  for (const side of ['ours', 'official'] as const) {
    const lines = tails[side].results[0]?.lines;
    if (lines !== undefined && lines !== TAIL_LINES) {
      notes.push(
        `${side}: read_text_file ${JSON.stringify(tailArgs)} answered ${lines} lines, not ${TAIL_LINES}`,
      );
    }
    const whole = wholes[side].results[0];
    if (whole && !whole.refused) {
      notes.push(`${side}: whole read returned ${(whole.bytes / MiB).toFixed(1)} MiB of text`);
    }
  }
  return {
    rows: [
      row({
        id: '6',
        name: `read_text_file tail ${TAIL_LINES} lines of ${sizes.bigFileMiB} MiB file`,
        unit: 'ms',
        better: 'lower',
        ours: cellOf(tails.ours, (r) => r.ms),
        official: cellOf(tails.official, (r) => r.ms),
        goal: { ratioAtMost: 1.1, text: 'no slower (≤ 1.1×)' },
      }),
      row({
        id: '6',
        name: 'read_text_file whole big file: time to answer (1 run)',
        unit: 'ms',
        better: 'lower',
        ours: cellOf(wholes.ours, (r) => r.ms),
        official: cellOf(wholes.official, (r) => r.ms),
        goal: {
          text: 'ours refuses in < 100 ms',
          alsoRequired: { text: 'refusal < 100 ms', met: ours ? ours.refused && ours.ms < 100 : undefined },
        },
      }),
      row({
        id: '6',
        name: 'read_text_file whole big file: peak RSS',
        unit: 'bytes',
        better: 'lower',
        ours: cellOf(wholes.ours, (r) => r.peakRss),
        official: cellOf(wholes.official, (r) => r.peakRss),
        goal: {
          text: 'ours < 100 MiB',
          alsoRequired: {
            text: 'RSS < 100 MiB',
            met: ours?.peakRss === undefined ? undefined : ours.peakRss < 100 * MiB,
          },
        },
      }),
    ],
    answers: [
      {
        name: `tail ${TAIL_LINES}`,
        call: `read_text_file ${JSON.stringify(tailArgs)}`,
        ours: tails.ours.results[0]?.head ?? tails.ours.error ?? '—',
        official: tails.official.results[0]?.head ?? tails.official.error ?? '—',
      },
      {
        name: 'whole read',
        call: `read_text_file ${JSON.stringify(wholeArgs)}`,
        ours: ours?.answer ?? wholes.ours.error ?? '—',
        official: wholes.official.results[0]?.answer ?? wholes.official.error ?? '—',
      },
    ],
    notes,
  };
}
