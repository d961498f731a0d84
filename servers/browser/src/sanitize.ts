/**
 * Page text is untrusted content (case ALL-06): every text that came from a page (snapshots,
 * Markdown, text, titles, console messages, evaluation results) passes through the shared
 * neutraliser — tag characters decoded and shown, bidi controls made visible, zero-width and other
 * invisible characters removed, hidden HTML comments and non-http(s) link targets
 * (`javascript:`, `data:`, `file:`) in Markdown and HTML removed with a visible marker.
 */
import { neutralize } from '@refmcp/shared/untrusted';

/** `text` neutralised for a model to read (see the module comment). Pure. */
export function untrustedText(text: string): string {
  return neutralize(text);
}
