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
