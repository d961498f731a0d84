/**
 * A Google Doc's tabs through the Docs API (`documents.get`, `includeTabsContent: true`;
 * developers.google.com/docs/api/how-tos/tabs). Drive's files.export gives a Doc as one text that
 * does not say where a tab begins (and has been reported to hold the first tab only), so a Doc of
 * two or more tabs is read here, each tab labelled (format/doc-markdown.ts). First a small call
 * asks only for the tab ids (top level and one level down); a one-tab Doc is left to the export,
 * which renders it best. When the Docs API refuses (not enabled for the OAuth client's project,
 * 403; or 404), the caller exports as before and says that tabs were not checked.
 */
import type { docs_v1 } from '@googleapis/docs';
import { HttpError } from '@refmcp/shared/upstream';
import type { DriveClient } from './drive/client.js';
import { tabCount, tabsToMarkdown } from './format/doc-markdown.js';

/** The probe's fields: enough to tell one tab from several. */
const PROBE_FIELDS = 'tabs(tabProperties(tabId),childTabs(tabProperties(tabId)))';

/** Several tabs as Markdown, or why the caller should export (one tab; or a note). */
export type DocTabs = { markdown: string; count: number } | { note?: string };

/** `id`'s tabs (module comment). Errors: as DriveClient.call, but 403 and 404 become a note. */
export async function readDocTabs(client: DriveClient, id: string, signal: AbortSignal): Promise<DocTabs> {
  const get = (fields: string) =>
    client.call<docs_v1.Schema$Document>(
      'GET',
      `documents.get ${id}`,
      (o) => client.docs.documents.get({ documentId: id, includeTabsContent: true, fields }, o),
      signal,
      { docs: true },
    );
  try {
    const probe = await get(PROBE_FIELDS);
    if (tabCount(probe.data.tabs) < 2) return {};
    const full = await get('tabs');
    return { markdown: tabsToMarkdown(full.data.tabs), count: tabCount(full.data.tabs) };
  } catch (error) {
    if (error instanceof HttpError && (error.status === 403 || error.status === 404))
      return {
        note: `tabs not checked (Docs API: ${error.message}); the export may hold the first tab only`,
      };
    throw error;
  }
}
