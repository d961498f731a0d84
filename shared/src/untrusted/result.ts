/**
 * The result builder for third-party text (issue and PR bodies, comments, commit messages, chat
 * messages, documents) on its way to the model: each piece is neutralised by the sanitiser (cases
 * GH-04, ALL-06), bounded with an explicit truncation marker, and labelled as data. A tool makes
 * one `UntrustedText` per result and passes every upstream text through it, which collects what
 * was neutralised; {@link respond} renders the result in one place: the untrusted-content notice,
 * the tool's lines, and what was neutralised (text and structuredContent alike).
 */
import { z } from '../schema.js';
import { truncateUtf8, truncationMarker } from '../server/budget.js';
import { structuredResult, type ToolResult } from '../server/tool.js';
import {
  addFindings,
  defuseStrayLabels,
  describeFindings,
  labelUntrusted,
  neutralize,
  noFindings,
  sanitizeUntrusted,
  UNTRUSTED_NOTICE,
} from './sanitize.js';
import { stripTerminal } from './terminal.js';

export class UntrustedText {
  private readonly findings = noFindings();

  /**
   * `text` neutralised and, when longer than `maxBytes` (UTF-8), cut with a marker saying how to
   * get the rest (`more`). null/undefined become "".
   */
  clean(
    text: string | null | undefined,
    maxBytes = Number.POSITIVE_INFINITY,
    more = 'narrow the request',
  ): string {
    return this.bounded(text, true, maxBytes, more);
  }

  /**
   * Code, diffs and logs: only hidden characters made visible or removed (no HTML or Markdown
   * rewriting, which would corrupt the code), then cut at `maxBytes` like {@link clean}.
   */
  code(
    text: string | null | undefined,
    maxBytes = Number.POSITIVE_INFINITY,
    more = 'narrow the request',
  ): string {
    return this.bounded(text, false, maxBytes, more);
  }

  /**
   * A CI job log: terminal control sequences and GitLab section markers removed whole
   * ({@link stripTerminal}), then as {@link code}.
   */
  log(
    text: string | null | undefined,
    maxBytes = Number.POSITIVE_INFINITY,
    more = 'narrow the request',
  ): string {
    return this.bounded(text ? stripTerminal(text) : text, false, maxBytes, more);
  }

  private bounded(text: string | null | undefined, markup: boolean, maxBytes: number, more: string): string {
    if (!text) return '';
    const sanitized = sanitizeUntrusted(text, { markup });
    addFindings(this.findings, sanitized.findings);
    const cut = truncateUtf8(sanitized.text, maxBytes);
    if (!cut.truncated) return cut.text;
    // A cut can leave a tag open in prose; code is not rendered, so it is cut as is.
    return `${markup ? closeCut(cut.text) : cut.text}\n${truncationMarker(`${cut.omittedBytes} more bytes`, more)}`;
  }

  /** `clean` for one-line fields (titles, names): newlines folded to spaces. */
  line(text: string | null | undefined, maxBytes = 1024): string {
    return this.clean(text, maxBytes).replace(/\s*\n\s*/g, ' ');
  }

  /** "Neutralised in upstream text: …" when anything was, else undefined. */
  note(): string | undefined {
    const list = describeFindings(this.findings);
    return list ? `Neutralised in upstream text: ${list}.` : undefined;
  }
}

/**
 * A piece cut from sanitised text (a prefix, a tail of lines), sanitised again: a cut can leave a
 * tag open (`<img alt="…` whose `>` was cut off, which would close on whatever follows) or start
 * inside an attribute value. Findings are not counted again: the cut made them, not upstream.
 */
function closeCut(text: string): string {
  return neutralize(text);
}

/** A labelled block for the text rendering (empty text → ""). */
export function block(source: string, text: string): string {
  return text ? labelUntrusted(source, text) : '';
}

/** Indents every line by `prefix`. */
export function indent(text: string, prefix = '  '): string {
  return text
    .split('\n')
    .map((l) => (l ? `${prefix}${l}` : l))
    .join('\n');
}

/**
 * The result envelope: `structured` as structuredContent, and text = `lines` joined, headed by
 * the untrusted-content notice when `untrusted` carried user text, and followed by what was
 * neutralised (also in structuredContent as `neutralized`; declare {@link neutralizedField} in the
 * tool's outputSchema).
 */
export function respond(
  structured: Record<string, unknown>,
  lines: string[],
  untrusted?: UntrustedText,
): ToolResult {
  const note = untrusted?.note();
  // The notice names the label's tag itself: it is not third-party text, so it is not read for stray tags.
  const body = defuseStrayLabels([...lines, note ?? ''].filter(Boolean).join('\n'));
  const text = [untrusted ? UNTRUSTED_NOTICE : '', body].filter(Boolean).join('\n');
  return structuredResult(note ? { ...structured, neutralized: note } : structured, text);
}

/** Output-schema field for {@link respond}'s note. */
export const neutralizedField = {
  neutralized: z
    .string()
    .optional()
    .describe(
      'What the sanitiser neutralised in upstream text (hidden characters, HTML comments, unsafe links)',
    ),
};
