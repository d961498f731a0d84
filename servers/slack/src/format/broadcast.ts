/**
 * Broadcast mentions in a message the server would post: `<!channel>`, `<!here>`, `<!everyone>`
 * and user-group mentions `<!subteam^S…>` (Slack's "Formatting text for app surfaces": special
 * mentions) notify every member of a channel or group. A model steered by injected text could
 * otherwise ping a whole workspace, so they are refused unless the operator passed
 * --allow-broadcast. Plain "@channel" text is not a mention in an API post (no `link_names`).
 */
const BROADCAST = /<!(channel|here|everyone|subteam\^[A-Z0-9]+)(?:\|[^>]*)?>/gi;

/** The broadcast mentions in `text`, as `@channel`, `@here`, `@everyone`, `@subteam^S…` (deduplicated). */
export function broadcastMentions(text: string): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(BROADCAST))
    found.add(`@${(m[1] as string).replace(/^(channel|here|everyone)$/i, (w) => w.toLowerCase())}`);
  return [...found];
}
