/**
 * A file's comment threads (Drive comments.list): who wrote each, what it is anchored to (the
 * quoted text, `quotedFileContent.value`), whether it is resolved, and its replies — read in pages
 * of 100 up to {@link MAX_COMMENTS}, each text bounded. And a Doc's Markdown with its open threads
 * placed at their anchors: after the first paragraph holding the quoted text (compared without
 * Markdown marks and spacing), or in a closing section when the quote is not found (edited since,
 * or spanning paragraphs).
 */
import type { drive_v3 } from '@googleapis/drive';
import type { UntrustedText } from '@refmcp/shared/untrusted';
import type { Config } from './config.js';

/** Most threads read from one file. */
export const MAX_COMMENTS = 500;
/** Longest comment or reply text kept, in bytes (a longer one is cut with a marker). */
export const COMMENT_BYTES = 2048;
/** Longest quote kept, in bytes. */
export const QUOTE_BYTES = 300;

/** The comments.list fields this server reads (Drive requires `fields` on this method). */
export const COMMENT_FIELDS =
  'nextPageToken,comments(id,author(displayName,emailAddress),content,createdTime,resolved,deleted,quotedFileContent(value),replies(id,author(displayName),content,action,deleted))';

/** A thread as results show it. */
export interface Thread {
  id: string;
  author: string;
  content: string;
  quoted?: string;
  resolved: boolean;
  createdTime?: string;
  replies: { id: string; author: string; content: string; action?: string }[];
}

/** Every thread of file `id` (module comment), untrusted text cleaned by `t`. Errors: Drive's. */
export async function readThreads(
  config: Config,
  id: string,
  t: UntrustedText,
  signal: AbortSignal,
): Promise<{ threads: Thread[]; more: boolean }> {
  const { drive } = config;
  const threads: Thread[] = [];
  let pageToken: string | undefined;
  do {
    const res = await drive.call<drive_v3.Schema$CommentList>(
      'GET',
      `comments.list ${id}`,
      (o) =>
        drive.api.comments.list(
          { fileId: id, fields: COMMENT_FIELDS, pageSize: 100, ...(pageToken ? { pageToken } : {}) },
          o,
        ),
      signal,
    );
    for (const c of res.data.comments ?? []) {
      if (c.deleted) continue;
      const quoted = c.quotedFileContent?.value
        ? t.line(htmlText(c.quotedFileContent.value), QUOTE_BYTES)
        : '';
      threads.push({
        id: c.id ?? '',
        author: t.line(c.author?.displayName ?? 'someone', 200),
        content: t.clean(c.content ?? '', COMMENT_BYTES),
        ...(quoted ? { quoted } : {}),
        resolved: Boolean(c.resolved),
        ...(c.createdTime ? { createdTime: c.createdTime } : {}),
        replies: (c.replies ?? [])
          .filter((r) => !r.deleted)
          .map((r) => ({
            id: r.id ?? '',
            author: t.line(r.author?.displayName ?? 'someone', 200),
            content: t.clean(r.content ?? '', COMMENT_BYTES),
            ...(r.action ? { action: r.action } : {}),
          })),
      });
    }
    pageToken = res.data.nextPageToken ?? undefined;
  } while (pageToken && threads.length < MAX_COMMENTS);
  return {
    threads: threads.slice(0, MAX_COMMENTS),
    more: Boolean(pageToken) || threads.length > MAX_COMMENTS,
  };
}

/** The text of Drive's quoted HTML (`&amp;` and tags as a browser shows them). */
function htmlText(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(
      /&(amp|lt|gt|quot|#39);/g,
      (e) => ({ '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" })[e] ?? e,
    );
}

/** One thread as lines: `> [comment c1, alice, on "quoted"]: text` and `>   ↳ bob: reply`. */
export function threadLines(th: Thread, withQuote = true): string[] {
  const state = th.resolved ? ', resolved' : '';
  return [
    `> [comment ${th.id}, ${th.author}${state}${withQuote && th.quoted ? `, on "${th.quoted}"` : ''}]: ${th.content.replace(/\n/g, ' ')}`,
    ...th.replies.map(
      (r) => `>   ↳ ${r.author}${r.action ? ` (${r.action}d)` : ''}: ${r.content.replace(/\n/g, ' ') || '—'}`,
    ),
  ];
}

/** Letters and digits only, lower-case: how a quote is found in Markdown (marks and spacing differ). */
const gist = (s: string): string => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

/**
 * `markdown` with each open thread's lines after the paragraph its quote is in; threads whose
 * quote is not found (or that quote nothing) in a closing "Comments not placed" section.
 */
export function placeThreads(markdown: string, threads: Thread[]): { text: string; placed: number } {
  const open = threads.filter((th) => !th.resolved);
  const paragraphs = markdown.split(/\n{2,}/);
  const gists = paragraphs.map(gist);
  const after = new Map<number, Thread[]>();
  const unplaced: Thread[] = [];
  for (const th of open) {
    const q = th.quoted ? gist(th.quoted) : '';
    const at = q ? gists.findIndex((g) => g.includes(q)) : -1;
    if (at < 0) unplaced.push(th);
    else after.set(at, [...(after.get(at) ?? []), th]);
  }
  const out = paragraphs.map((p, i) => {
    const here = after.get(i);
    return here ? [p, ...here.map((th) => threadLines(th).join('\n'))].join('\n\n') : p;
  });
  if (unplaced.length)
    out.push(['## Comments not placed', ...unplaced.map((th) => threadLines(th).join('\n'))].join('\n\n'));
  return { text: out.join('\n\n'), placed: open.length - unplaced.length };
}
