/**
 * A file shared with a message, as messages list it: `name (type, size, id F…)`, so the model can
 * read it with slack_read_file. The name is the uploader's: untrusted.
 */
import type { UntrustedText } from '@refmcp/shared/untrusted';

export interface RawFile {
  id?: string;
  name?: string;
  title?: string;
  filetype?: string;
  mimetype?: string;
  size?: number;
}

const size = (n: number) =>
  n < 1024
    ? `${n} B`
    : n < 1024 * 1024
      ? `${(n / 1024).toFixed(1)} KB`
      : `${(n / 1024 / 1024).toFixed(1)} MB`;

/** `report.pdf (pdf, 12.3 KB, id F0123)`; facts Slack did not send are left out. */
export function fileLabel(untrusted: UntrustedText): (f: RawFile) => string {
  return (f) => {
    const name = untrusted.line(f.name || f.title || 'file', 200);
    const type = f.filetype || f.mimetype;
    const facts = [
      type && /^[\w.+/-]{1,100}$/.test(type) ? type : '',
      typeof f.size === 'number' ? size(f.size) : '',
      f.id && /^F[A-Z0-9]{2,30}$/.test(f.id) ? `id ${f.id}` : '',
    ].filter(Boolean);
    return facts.length ? `${name} (${facts.join(', ')})` : name;
  };
}
