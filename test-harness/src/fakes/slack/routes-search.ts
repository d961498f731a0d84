// search.messages of the fake Slack (user tokens only): words and "phrases" matched
// case-insensitively, `in:` (#name, name, C…, <#C…|name>) and `from:` (@name, name, <@U…>)
// modifiers, newest first, paged by `count` and `page` as Slack pages search.
import type { FakeSlack } from './fake-slack.js';
import { fail, int, need, requireScopes } from './http.js';
import { matchObject } from './objects.js';
import type { ChannelRecord, MessageRecord } from './state.js';

/** A parsed search query: terms that must all occur, and the modifiers. */
export interface SearchQuery {
  terms: string[];
  in: string[];
  from: string[];
}

/** Splits Slack's search syntax into terms and the `in:`/`from:` modifiers the fake understands. */
export function parseSearch(query: string): SearchQuery {
  const out: SearchQuery = { terms: [], in: [], from: [] };
  for (const [, phrase, word] of query.matchAll(/"([^"]*)"|(\S+)/g)) {
    if (phrase !== undefined) {
      if (phrase) out.terms.push(phrase.toLowerCase());
      continue;
    }
    const token = word ?? '';
    const modifier = /^(in|from):(.+)$/i.exec(token);
    if (modifier?.[1]?.toLowerCase() === 'in') out.in.push(modifier[2] ?? '');
    else if (modifier?.[1]?.toLowerCase() === 'from') out.from.push(modifier[2] ?? '');
    else out.terms.push(token.toLowerCase());
  }
  return out;
}

export function registerSearchRoutes(slack: FakeSlack): void {
  const { state } = slack;

  const channelOf = (spec: string): ChannelRecord | undefined => {
    const id = /^<#(\w+)(?:\|[^>]*)?>$/.exec(spec)?.[1] ?? (/^[CGD][A-Z0-9]+$/.test(spec) ? spec : undefined);
    return id ? state.channels.get(id) : state.channelByName(spec);
  };
  const userOf = (spec: string): string | undefined => {
    const id = /^<@(\w+)(?:\|[^>]*)?>$/.exec(spec)?.[1];
    if (id) return id;
    const name = spec.replace(/^@/, '');
    return [...state.users.values()].find((u) => u.name === name || u.id === name)?.id;
  };

  slack.method(
    'search.messages',
    (_req, args, who) => {
      if (who.record.kind === 'bot') fail('not_allowed_token_type');
      requireScopes(who, ['search:read']);
      const query = need(args, 'query', 'no_query');
      const q = parseSearch(query);
      const channels = q.in.map(channelOf);
      const authors = q.from.map(userOf);
      const found: Array<[ChannelRecord, MessageRecord]> = [];
      // An `in:` naming no channel or an unknown `from:` matches nothing, as Slack's search does.
      if (!channels.includes(undefined) && !authors.includes(undefined))
        for (const c of state.channels.values()) {
          if (!state.canSee(c, who.user.id)) continue;
          if (channels.length && !channels.includes(c)) continue;
          const all = c.messages.flatMap((m) => [m, ...m.replies.filter((r) => !r.broadcast)]);
          for (const m of all) {
            if (authors.length && !authors.includes(m.user)) continue;
            // Slack indexes the words of blocks and attachments too.
            const text = [m.text, JSON.stringify(m.blocks ?? []), JSON.stringify(m.attachments ?? [])]
              .join(' ')
              .toLowerCase();
            if (q.terms.every((t) => text.includes(t))) found.push([c, m]);
          }
        }
      found.sort((a, b) => Number(b[1].ts) - Number(a[1].ts));
      const count = Math.min(100, Math.max(1, int(args, 'count') ?? 20));
      const pages = Math.max(1, Math.ceil(found.length / count));
      const page = Math.min(100, Math.max(1, int(args, 'page') ?? 1));
      if (page > pages && found.length) fail('page_out_of_range');
      const items = found.slice((page - 1) * count, page * count);
      const first = found.length ? (page - 1) * count + 1 : 0;
      return {
        body: {
          ok: true,
          query,
          messages: {
            total: found.length,
            pagination: {
              total_count: found.length,
              page,
              per_page: count,
              page_count: pages,
              first,
              last: found.length ? first + items.length - 1 : 0,
            },
            paging: { count, total: found.length, page, pages },
            matches: items.map(([c, m]) => matchObject(state, c, m, who.user.id)),
          },
        },
      };
    },
    ['search:read'],
  );
}
