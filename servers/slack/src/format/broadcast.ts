/**
 * Broadcast mentions in a message the server would post: `<!channel>`, `<!here>`, `<!everyone>`
 * and user-group mentions `<!subteam^S…>` (Slack's "Formatting text for app surfaces": special
 * mentions) notify every member of a channel or group. A model steered by injected text could
 * otherwise ping a whole workspace, so they are refused unless the operator passed
 * --allow-broadcast. Plain "@channel" text is not a mention in a mrkdwn API post (no
 * `link_names`), but posts go out as Markdown (`markdown_text`), which Slack translates itself: there
 * a plain `@here`, `@channel` or `@everyone` is refused too.
 */
import { ToolError } from '@refmcp/shared';

const BROADCAST = /<!(channel|here|everyone|subteam\^[A-Z0-9]+)(?:\|[^>]*)?>/gi;

/** The broadcast mentions in `text`, as `@channel`, `@here`, `@everyone`, `@subteam^S…` (deduplicated). */
export function broadcastMentions(text: string): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(BROADCAST))
    found.add(`@${(m[1] as string).replace(/^(channel|here|everyone)$/i, (w) => w.toLowerCase())}`);
  for (const m of text.matchAll(PLAIN)) found.add(`@${(m[1] as string).toLowerCase()}`);
  return [...found];
}

/** `@here`, `@channel`, `@everyone` as words (not `@channel-owners` or `a@here.example`). */
const PLAIN = /(?<![\w.@-])@(channel|here|everyone)(?![\w-])/gi;

/**
 * Throws the refusal of a text with broadcast mentions unless the operator allowed them:
 * "<subject> mentions @here, …, which notifies everyone in the channel or group; nothing was <outcome>. …".
 */
export function refuseBroadcast(text: string, allowed: boolean, subject: string, outcome: string): void {
  const broadcast = allowed ? [] : broadcastMentions(text);
  if (broadcast.length)
    throw new ToolError(
      `${subject} mentions ${broadcast.join(', ')}, which notifies everyone in the channel or group; nothing was ${outcome}. Remove the mention, or the operator allows it with --allow-broadcast.`,
    );
}
