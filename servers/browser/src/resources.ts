/**
 * Resources, as the archived Puppeteer reference server offered them:
 *   console://logs            the current tab's console messages (text, newest last, bounded)
 *   screenshot://{name}       screenshots taken in this process (PNG/JPEG blobs; the last 20 are
 *                             kept in memory, named by content hash)
 *   download://{name}         downloads saved under --output-dir/downloads by this session
 *                             (--save-downloads; read from disk; the last 20 are listed)
 * Both lists are one page (the shared resource set refuses any cursor: case ALL-05).
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { McpServer } from '@modelcontextprotocol/server';
import { completeFrom, registerResourceSet } from '@refmcp/shared/server';
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

interface SavedDownload {
  name: string;
  /** Where it was written (inside --output-dir). */
  file: string;
  mimeType: string;
  size: number;
}

export class ResourceStore {
  private readonly shots = new Map<string, Screenshot>();
  private readonly saved = new Map<string, SavedDownload>();

  /** Keeps a saved download (its file stays on disk); returns its resource URI. */
  addDownload(name: string, file: string, mimeType: string, size: number): string {
    this.saved.delete(name);
    this.saved.set(name, { name, file, mimeType, size });
    while (this.saved.size > MAX_SCREENSHOTS) this.saved.delete(this.saved.keys().next().value ?? '');
    return `download://${encodeURIComponent(name)}`;
  }

  download(name: string): SavedDownload | undefined {
    return this.saved.get(name);
  }

  downloads(): SavedDownload[] {
    return [...this.saved.values()];
  }

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

const CONSOLE_URI = 'console://logs';

const safeDecode = (s: string): string | undefined => {
  try {
    return decodeURIComponent(s);
  } catch {
    return undefined;
  }
};

/** console://logs, screenshot://{name}: one page each (they issue no cursor). */
export function registerResources(server: McpServer, session: BrowserSession, store: ResourceStore): void {
  registerResourceSet(server, {
    resources: [{ uri: CONSOLE_URI, name: 'console', title: 'Browser console', mimeType: 'text/plain' }],
    templates: [
      {
        uriTemplate: 'screenshot://{name}',
        name: 'screenshot',
        title: 'Screenshot',
        description: `A screenshot taken by browser_take_screenshot (the last ${MAX_SCREENSHOTS} are kept).`,
        mimeType: 'image/png',
        // The kept screenshots and downloads of this session (no browser launched).
        complete: {
          name: ({ value }) =>
            completeFrom(
              store.screenshots().map((s) => s.name),
              value,
            ),
        },
      },
      {
        uriTemplate: 'download://{name}',
        name: 'download',
        title: 'Downloaded file',
        description:
          'A file a page downloaded, saved under the output directory (operator flag --save-downloads).',
        complete: {
          name: ({ value }) =>
            completeFrom(
              store.downloads().map((d) => d.name),
              value,
            ),
        },
      },
    ],
    list: {
      page: () => ({
        resources: store
          .screenshots()
          .map((s) => ({
            uri: `screenshot://${s.name}`,
            name: s.name,
            title: 'Screenshot',
            description: s.description,
            mimeType: s.mimeType,
          }))
          .concat(
            store.downloads().map((d) => ({
              uri: `download://${encodeURIComponent(d.name)}`,
              name: d.name,
              title: 'Downloaded file',
              description: `${d.size} bytes, saved at ${d.file}`,
              mimeType: d.mimeType,
            })),
          ),
      }),
    },
    read: async (uri) => {
      if (uri === CONSOLE_URI)
        return { contents: [{ uri, mimeType: 'text/plain', text: consoleText(session) }] };
      if (uri.startsWith('download://')) {
        const name = safeDecode(uri.slice('download://'.length));
        const saved = name === undefined ? undefined : store.download(name);
        if (!saved) return undefined;
        const data = await readFile(saved.file).catch(() => undefined);
        if (!data) return undefined;
        return { contents: [{ uri, mimeType: saved.mimeType, blob: data.toString('base64') }] };
      }
      const match = /^screenshot:\/\/([0-9a-f]{16}\.(?:png|jpeg))$/.exec(uri);
      const shot = match?.[1] ? store.screenshot(match[1]) : undefined;
      if (!shot) return undefined;
      return { contents: [{ uri, mimeType: shot.mimeType, blob: shot.data.toString('base64') }] };
    },
  });
}
