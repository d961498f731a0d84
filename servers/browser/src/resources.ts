/**
 * Resources, as the archived Puppeteer reference server offered them:
 *   console://logs            the current tab's console messages (text, newest last, bounded)
 *   screenshot://{name}       screenshots taken in this process (PNG/JPEG blobs; the last 20 are
 *                             kept in memory, named by content hash)
 * resources/list and resources/templates/list answer in one page and refuse any cursor (they issue
 * none), per the pagination contract (case ALL-05).
 */
import { createHash } from 'node:crypto';
import {
  type McpServer,
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
} from '@modelcontextprotocol/server';
import type { BrowserSession } from './browser/session.js';
import { untrustedText } from './sanitize.js';

/** Screenshots kept for screenshot:// resources. */
export const MAX_SCREENSHOTS = 20;
/** Console lines served by console://logs (the newest). */
const CONSOLE_LINES = 500;

interface Screenshot {
  name: string;
  mimeType: string;
  data: Buffer;
  description: string;
}

export class ResourceStore {
  private readonly shots = new Map<string, Screenshot>();

  /** Keeps a screenshot; returns its resource URI (same bytes → same URI). */
  addScreenshot(data: Buffer, mimeType: string, description: string): string {
    const ext = mimeType === 'image/jpeg' ? 'jpeg' : 'png';
    const name = `${createHash('sha256').update(data).digest('hex').slice(0, 16)}.${ext}`;
    this.shots.delete(name);
    this.shots.set(name, { name, mimeType, data, description });
    while (this.shots.size > MAX_SCREENSHOTS) this.shots.delete(this.shots.keys().next().value ?? '');
    return `screenshot://${name}`;
  }

  screenshot(name: string): Screenshot | undefined {
    return this.shots.get(name);
  }

  screenshots(): Screenshot[] {
    return [...this.shots.values()];
  }
}

function noCursor(method: string, cursor: unknown): void {
  if (cursor !== undefined)
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `Invalid cursor for ${method}: it has a single page`,
    );
}

/** The console of the current tab as text ("[level] text (location)" lines); no launch. */
function consoleText(session: BrowserSession): string {
  const current = session.activeTab;
  if (!current) return 'No browser tab is open.';
  const entries = current.console.slice(-CONSOLE_LINES);
  if (!entries.length) return `No console messages on ${current.page.url()}.`;
  return entries
    .map((e) => `[${e.level}] ${untrustedText(e.text.slice(0, 2000))}${e.location ? ` (${e.location})` : ''}`)
    .join('\n');
}

export function registerResources(server: McpServer, session: BrowserSession, store: ResourceStore): void {
  server.registerResource(
    'console',
    'console://logs',
    {
      title: 'Browser console',
      description: `Console messages of the current tab (the newest ${CONSOLE_LINES}), as text.`,
      mimeType: 'text/plain',
    },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: consoleText(session) }] }),
  );

  server.server.setRequestHandler('resources/read', async (request) => {
    const uri = request.params.uri;
    if (uri === 'console://logs')
      return { contents: [{ uri, mimeType: 'text/plain', text: consoleText(session) }] };
    const match = /^screenshot:\/\/([0-9a-f]{16}\.(?:png|jpeg))$/.exec(uri);
    const shot = match?.[1] ? store.screenshot(match[1]) : undefined;
    if (!shot) throw new ResourceNotFoundError(uri);
    return { contents: [{ uri, mimeType: shot.mimeType, blob: shot.data.toString('base64') }] };
  });

  server.server.setRequestHandler('resources/list', async (request) => {
    noCursor('resources/list', request.params?.cursor);
    return {
      resources: [
        { uri: 'console://logs', name: 'console', title: 'Browser console', mimeType: 'text/plain' },
        ...store.screenshots().map((s) => ({
          uri: `screenshot://${s.name}`,
          name: s.name,
          title: 'Screenshot',
          description: s.description,
          mimeType: s.mimeType,
        })),
      ],
    };
  });

  server.server.setRequestHandler('resources/templates/list', async (request) => {
    noCursor('resources/templates/list', request.params?.cursor);
    return {
      resourceTemplates: [
        {
          uriTemplate: 'screenshot://{name}',
          name: 'screenshot',
          title: 'Screenshot',
          description: `A screenshot taken by browser_take_screenshot (the last ${MAX_SCREENSHOTS} are kept).`,
          mimeType: 'image/png',
        },
      ],
    };
  });
}
