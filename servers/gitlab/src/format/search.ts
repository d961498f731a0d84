/** Code-search fragments as the model sees them (lenient): file content, so untrusted text. */
import { compact } from '@refmcp/shared';
import { z } from '@refmcp/shared/schema';
import type { UntrustedText } from '@refmcp/shared/untrusted';
import { num, obj, str } from './common.js';

export const blobHitShape = z.object({
  project: z.string().optional().describe('Project path (group search)'),
  path: z.string(),
  ref: z.string().optional(),
  startline: z.number().optional().describe('Line number of the fragment’s first line'),
  data: z.string().describe('The matching fragment (file content: untrusted)'),
});
export type BlobHit = z.infer<typeof blobHitShape>;

/** One blob-search result; `dataBytes` bounds its fragment; `project` names its project (group search). */
export function toBlobHit(raw: unknown, text: UntrustedText, dataBytes: number, project?: string): BlobHit {
  const b = obj(raw);
  return compact({
    project: project === undefined ? undefined : text.line(project),
    path: text.line(str(b.path) ?? str(b.filename), 4096),
    ref: str(b.ref),
    startline: num(b.startline),
    data: text.code(str(b.data), dataBytes, 'read the file with get_file_contents'),
  });
}
