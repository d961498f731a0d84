// auth.test, users.list, users.info, users.lookupByEmail and users.profile.get of the fake Slack.
import { cursorPage } from '../../fake-api/index.js';
import type { FakeSlack } from './fake-slack.js';
import { fail, int, need, requireScopes, slackError, str } from './http.js';
import { profileObject, userObject } from './objects.js';

export function registerUserRoutes(slack: FakeSlack): void {
  const { state } = slack;

  slack.method('auth.test', (_req, _args, who) => ({
    body: {
      ok: true,
      url: state.webUrl,
      team: state.team.name,
      user: who.user.name,
      team_id: state.team.id,
      user_id: who.user.id,
      ...(who.record.kind === 'bot' && who.user.botId ? { bot_id: who.user.botId } : {}),
      is_enterprise_install: false,
    },
  }));

  slack.method(
    'users.list',
    (_req, args, who) => {
      requireScopes(who, ['users:read']);
      const all = [...state.users.values()];
      // Without a limit Slack answers every member at once (what makes big workspaces slow).
      const limit = int(args, 'limit', 'invalid_limit');
      const page = cursorPage(all, {
        cursor: str(args, 'cursor'),
        limit,
        defaultLimit: Math.max(1, all.length),
        maxLimit: limit === undefined ? Math.max(1, all.length) : 1000,
        invalid: () => slackError('invalid_cursor'),
      });
      return {
        body: {
          ok: true,
          members: page.items.map((u) => userObject(u, state)),
          cache_ts: Math.floor(slack.now() / 1000),
          response_metadata: { next_cursor: page.next ?? '' },
        },
      };
    },
    ['users:read'],
  );

  slack.method(
    'users.info',
    (_req, args, who) => {
      requireScopes(who, ['users:read']);
      const user = state.users.get(need(args, 'user', 'user_not_found'));
      if (!user) fail('user_not_found');
      return { body: { ok: true, user: userObject(user, state) } };
    },
    ['users:read'],
  );

  slack.method(
    'users.lookupByEmail',
    (_req, args, who) => {
      requireScopes(who, ['users:read.email']);
      const email = need(args, 'email', 'users_not_found').toLowerCase();
      const user = [...state.users.values()].find((u) => u.email?.toLowerCase() === email);
      if (!user) fail('users_not_found');
      return { body: { ok: true, user: userObject(user, state) } };
    },
    ['users:read.email'],
  );

  slack.method(
    'users.profile.get',
    (_req, args, who) => {
      requireScopes(who, ['users.profile:read']);
      const id = str(args, 'user') ?? who.user.id;
      const user = state.users.get(id);
      if (!user) fail('user_not_found');
      return { body: { ok: true, profile: profileObject(user, state, true) } };
    },
    ['users.profile:read'],
  );
}
