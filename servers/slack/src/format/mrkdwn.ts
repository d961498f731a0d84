/**
 * Slack's message markup (docs.slack.dev/messaging/formatting-message-text, "Advanced formatting")
 * made readable for a model: `<@U…>` → `@name`, `<#C…|name>` → `#name` (the channel's known name first: the label is the poster's), `<!here>` → `@here`,
 * `<!subteam^S…|@team>` → `@team`, `<!date^…|fallback>` → the fallback, `<https://x|label>` →
 * `label (https://x)`, and the three escaped characters (`&lt;`, `&gt;`, `&amp;`) decoded. The
 * result still goes through the untrusted-text builder before it reaches the model.
 */

/** Names known for ids (no request is made while rendering). */
export interface Names {
  user(id: string): string | undefined;
  channel(id: string): string | undefined;
}

const ENTITY: Record<string, string> = { '&lt;': '<', '&gt;': '>', '&amp;': '&' };

/** `text` with Slack's markup resolved (module comment). */
export function readableText(text: string, names: Names): string {
  return text
    .replace(/<([^<>\n]*)>/g, (_all, inner: string) => {
      const bar = inner.indexOf('|');
      const target = bar < 0 ? inner : inner.slice(0, bar);
      const label = bar < 0 ? undefined : inner.slice(bar + 1);
      if (target.startsWith('@')) {
        const id = target.slice(1);
        return `@${names.user(id) ?? (label || id)}`;
      }
      if (target.startsWith('#')) {
        const id = target.slice(1);
        // The name Slack has for the id, as for users: a label can be anything the poster typed.
        return `#${names.channel(id) || label || id}`;
      }
      if (target.startsWith('!')) {
        const word = target.slice(1);
        if (/^(here|channel|everyone)$/.test(word)) return `@${word}`;
        if (word.startsWith('subteam^')) return label || '@group';
        return label || `@${word.split('^')[0]}`;
      }
      if (target.startsWith('mailto:')) return label || target.slice(7);
      if (!label || label === target || `http://${label}` === target || `https://${label}` === target)
        return target;
      return `${label} (${target})`;
    })
    .replace(/&(lt|gt|amp);/g, (e) => ENTITY[e] ?? e);
}

/** The user ids `<@U…>` mentions in `text`. */
export function mentionedUsers(text: string): string[] {
  return [...text.matchAll(/<@([UW][A-Z0-9]+)(?:\|[^>]*)?>/g)].map((m) => m[1] ?? '');
}

/** Longest link read for its host, in characters (longer ones keep unfurling off). */
const MAX_LINK_CHARS = 2048;

/**
 * The host of every link in posted `text`: `<url|label>`, `<url>` and bare URLs, plus bare host
 * names Slack links. URLs are read as a browser reads them (WHATWG URL): `\\` counts as `/`, so
 * `https://1.2.3.4\\@docs.example.com` is 1.2.3.4, and `https:evil.example` (no slashes) is
 * evil.example. A URL that does not parse gives `''` (no allowed domain matches it).
 */
export function linkHosts(text: string): string[] {
  const hosts: string[] = [];
  // A scheme is at most 32 characters before a colon (bounded: no quadratic scan of long words);
  // the rest is looked ahead at, not consumed, so "note:https://1.2.3.4/" still finds the link.
  // Past MAX_LINK_CHARS a link is not read at all (a host cut short could look allowed).
  for (const m of text.matchAll(/([a-z0-9+.-]{1,32}):(?=([^\s<>|]{0,2048}))/gi)) {
    const scheme = (m[1] ?? '').toLowerCase();
    if ((m[2] ?? '').length >= MAX_LINK_CHARS) {
      hosts.push('');
      continue;
    }
    // Prose punctuation after a link ("see https://x.example/a).") is not part of it.
    const rest = (m[2] ?? '').replace(/[).,;:!?'"]+$/, '');
    if (!rest) continue;
    // Web links with or without slashes (also glued to a word: "xhttps://…"); other schemes
    // (mailto:, tel:) only with an authority.
    const web = /https?$/.exec(scheme)?.[0];
    if (web) hosts.push(hostOf(`${web}:${rest}`));
    else if (/^[/\\]{2}/.test(rest)) hosts.push(hostOf(`${scheme}:${rest}`));
  }
  // Slack also links bare domains ("example.com/x"); a label that looks like one counts too.
  for (const m of text.matchAll(
    /(?<![\w@.-])((?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z][a-z0-9-]*[a-z0-9])(?![\w-])/gi,
  ))
    hosts.push((m[1] ?? '').toLowerCase());
  return hosts;
}

/** The host name of `url` as WHATWG URL parses it (lower-case, no port or trailing dot); `''` if none. */
function hostOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/\.$/, '').toLowerCase();
  } catch {
    return '';
  }
}

/**
 * True when Slack may unfurl what `text` links to: it links something and every host is one of
 * `domains` or below one (case SL-01). With no domains allowed, never.
 */
export function mayUnfurl(text: string, domains: readonly string[]): boolean {
  if (domains.length === 0) return false;
  const hosts = linkHosts(text);
  return (
    hosts.length > 0 && hosts.every((h) => h !== '' && domains.some((d) => h === d || h.endsWith(`.${d}`)))
  );
}
