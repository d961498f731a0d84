/**
 * CI job logs as a terminal would show them: whole control sequences removed, not just the
 * escape byte (which the sanitiser drops as a C0 control, leaving `[0K`, `[36;1m` behind).
 *
 * - ANSI/VT sequences (CSI such as SGR colours and erase-in-line, OSC such as hyperlinks): by
 *   `strip-ansi` (ECMA-48 §5.4, the sequences terminals act on).
 * - GitLab collapsible-section markers `section_start:<unix time>:<name>[<options>]\r` and
 *   `section_end:…` (docs.gitlab.com/ci/jobs/job_logs, "Custom collapsible sections"); the header
 *   text that follows a start marker stays; an end marker's line goes when nothing else is on it.
 * - Remnants of a colour or erase-in-line sequence whose ESC an earlier step already removed
 *   (`[0K`, `[0;m`, `[36;1m`): an opening bracket, numeric parameters and `m` or `K`, not followed
 *   by `]` (so an index such as `a[1m]` stays).
 * - Carriage returns: `\r\n` is a newline; a line rewritten in place (progress bars) keeps what a
 *   terminal shows last, the text after its last `\r`.
 */
import stripAnsi from 'strip-ansi';

const SECTION_START = /section_start:\d+:[\w.-]+(?:\[[^\]\r\n]*\])?\r?/g;
/** An end marker and the erase-in-line around it; its line, when nothing else is on it. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the escape byte of the sequence is the point
const SECTION_END = /(?:\u001b\[0?K)?section_end:\d+:[\w.-]+\r?(?:\u001b\[0?K)?(?:\r?\n)?/g;
const REMNANT = /\[\d{1,3}(?:;\d{0,3})*[mK](?!\])/g;

/** `log` with terminal control sequences, GitLab section markers and overwritten text removed. */
export function stripTerminal(log: string): string {
  if (!log) return log;
  const plain = stripAnsi(log.replace(SECTION_END, '').replace(SECTION_START, '')).replace(REMNANT, '');
  if (!plain.includes('\r')) return plain;
  return plain
    .replace(/\r+\n/g, '\n')
    .split('\n')
    .map((line) => {
      if (!line.includes('\r')) return line;
      const parts = line.split('\r');
      for (let i = parts.length - 1; i >= 0; i--) if (parts[i]) return parts[i];
      return '';
    })
    .join('\n');
}

/** The last `lines` lines of `text`, within `maxBytes` (whole lines), and how many lines were dropped. */
export function tailLines(
  text: string,
  lines: number,
  maxBytes: number,
): { text: string; dropped: number; total: number } {
  const all = text.replace(/\n$/, '').split('\n');
  const kept: string[] = [];
  let bytes = 0;
  for (let i = all.length - 1; i >= 0 && kept.length < lines; i--) {
    const line = all[i] ?? '';
    bytes += Buffer.byteLength(line) + 1;
    if (bytes > maxBytes && kept.length > 0) break;
    kept.unshift(line);
  }
  return { text: kept.join('\n'), dropped: all.length - kept.length, total: all.length };
}

/**
 * A line that reports an error, as test runners, compilers and CI runners print one: GitHub's
 * `##[error]` annotation, `error`/`Error:`/`ERROR`, `FAIL`/`failed`, `fatal`, `panic`, `Traceback`,
 * `Exception`, `AssertionError`, npm's `ERR!`, a ✖/✗ mark. Counts of nothing ("0 errors",
 * "0 failed") are not.
 */
const ERROR_LINE =
  /##\[error\]|\b(?:error|errors|fail|failed|failure|fatal|panic|traceback|exception|assertionerror)\b|ERR!|[✖✗]/i;
const NOTHING_FAILED = /\b(?:0|no) (?:errors?|failures?|failed)\b/i;

/** What a failed job's log says, in a few lines: see {@link digestLog}. */
export interface LogDigest {
  /** The last lines (terminal sequences stripped), within the byte budget. */
  tail: string;
  shownLines: number;
  totalLines: number;
  /** The first line that reports an error (1-based line number and text, cut at 500 bytes). */
  firstError?: { line: number; text: string };
  /** GitLab: the section the log ended in (its start marker has no end): where the job failed. */
  section?: string;
}

/**
 * A failed job's log digested: the GitLab section it ended in (read from the raw markers), then,
 * with terminal control sequences removed ({@link stripTerminal}) and `prepare` applied to each
 * line (e.g. GitHub's timestamps dropped), the first error line and the last `lines` lines within
 * `maxBytes`. The result is still untrusted text: pass it through `UntrustedText`.
 */
export function digestLog(
  raw: string,
  opts: { lines: number; maxBytes: number; prepare?: (line: string) => string },
): LogDigest {
  const open: string[] = [];
  for (const m of raw.matchAll(/section_(start|end):\d+:([\w.-]+)/g)) {
    const name = m[2] ?? '';
    if (m[1] === 'start') open.push(name);
    else {
      const at = open.lastIndexOf(name);
      if (at >= 0) open.splice(at, 1);
    }
  }
  let text = stripTerminal(raw);
  if (opts.prepare) text = text.split('\n').map(opts.prepare).join('\n');
  const lines = text.split('\n');
  let firstError: LogDigest['firstError'];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (ERROR_LINE.test(line) && !NOTHING_FAILED.test(line)) {
      const trimmed = line.trim();
      firstError = {
        line: i + 1,
        text: Buffer.byteLength(trimmed) > 500 ? `${trimmed.slice(0, 500)}…` : trimmed,
      };
      break;
    }
  }
  const cut = tailLines(text, opts.lines, opts.maxBytes);
  const digest: LogDigest = { tail: cut.text, shownLines: cut.total - cut.dropped, totalLines: cut.total };
  if (firstError) digest.firstError = firstError;
  const section = open.at(-1);
  if (section) digest.section = section;
  return digest;
}
