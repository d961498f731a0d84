// Starting the fake Slack: the Web API on a free port under /api, every method registered.
import { startFakeApi } from '../../fake-api/index.js';
import { FakeSlack } from './fake-slack.js';
import { slackError } from './http.js';
import { registerChatRoutes } from './routes-chat.js';
import { registerConversationRoutes } from './routes-conversations.js';
import { registerDownloadRoutes, registerFileRoutes } from './routes-files.js';
import { registerScheduledRoutes } from './routes-scheduled.js';
import { registerSearchRoutes } from './routes-search.js';
import { registerUserRoutes } from './routes-users.js';

/**
 * Starts a fake Slack Web API on 127.0.0.1 (free port) with every method registered and no data
 * (seed it with `seedScene` or `slack.state`). Point clients at `slack.apiUrl`
 * (`http://127.0.0.1:<port>/api/`). A method it does not serve answers
 * `{"ok":false,"error":"unknown_method"}`. Its traffic is recorded as vendor "slack" for the spec
 * check (`slackSpec` in ./spec.ts).
 */
export async function startFakeSlack(): Promise<FakeSlack> {
  const api = await startFakeApi({
    prefix: '/api',
    vendor: 'slack',
    notFound: () => slackError('unknown_method'),
  });
  const slack = new FakeSlack(api);
  // files.slack.com's stand-in, on the same host (another port): downloads of url_private_download.
  const files = await startFakeApi({});
  slack.files = files;
  slack.state.filesOrigin = files.url.replace(/\/+$/, '');
  registerDownloadRoutes(files, slack.state);
  registerFileRoutes(slack);
  registerUserRoutes(slack);
  registerConversationRoutes(slack);
  registerChatRoutes(slack);
  registerScheduledRoutes(slack);
  registerSearchRoutes(slack);
  return slack;
}
