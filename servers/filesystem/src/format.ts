/** Small formatting helpers for tool messages: sizes, permissions. */

const UNITS = ['KiB', 'MiB', 'GiB', 'TiB'];

/** "3221225472 bytes (3.0 GiB)" — exact bytes for the model to compare, the rounded size for a human. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} byte${bytes === 1 ? '' : 's'}`;
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${bytes} bytes (${value.toFixed(1)} ${UNITS[unit]})`;
}

/** Permission bits as octal, e.g. "644" (or "4755" with setuid/setgid/sticky bits). */
export function octalMode(mode: number): string {
  return (mode & 0o7777).toString(8).padStart(3, '0');
}

/** Permission bits as `ls -l` shows them, e.g. "rw-r--r--". */
export function symbolicMode(mode: number): string {
  const rwx = (bits: number) => `${bits & 4 ? 'r' : '-'}${bits & 2 ? 'w' : '-'}${bits & 1 ? 'x' : '-'}`;
  return rwx((mode >> 6) & 7) + rwx((mode >> 3) & 7) + rwx(mode & 7);
}

/** A path (or any model-supplied string) quoted for a message: JSON escapes make control characters visible. */
export function quote(text: string): string {
  return JSON.stringify(text.length > 200 ? `${text.slice(0, 200)}…` : text);
}
