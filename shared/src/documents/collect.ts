/**
 * The budgets of one extraction applied as parts are read: parts are taken in order from the start
 * position until the text, row or part budget is spent, and where reading stopped becomes `next`.
 */
import type { DocumentPart, DocumentPosition, ExtractedDocument, ExtractLimits } from './types.js';

const utf8Bytes = (text: string) => Buffer.byteLength(text, 'utf8');

export class PartCollector {
  readonly parts: DocumentPart[] = [];
  next?: DocumentPosition;
  stoppedBy?: string;
  private bytes = 0;
  private rows = 0;

  constructor(
    private readonly limits: ExtractLimits,
    readonly start: DocumentPosition,
    readonly lastPart: number,
    private readonly unit: string,
  ) {}

  /** False once a budget stopped reading: the caller reads no further parts. */
  get open(): boolean {
    return this.next === undefined;
  }

  /** Rows still allowed in this call. */
  get rowsLeft(): number {
    return this.limits.maxRows - this.rows;
  }

  /** Characters of `part` already returned by earlier calls. */
  offsetOf(part: number): number {
    return part === this.start.part ? this.start.offset : 0;
  }

  /**
   * Whether part `number` may be added; when the part budget is spent, records `next` there and
   * says no.
   */
  admit(number: number): boolean {
    if (!this.open) return false;
    if (this.parts.length >= this.limits.maxParts) {
      this.stop({ part: number, offset: 0 }, `${this.limits.maxParts} ${this.unit}s`);
      return false;
    }
    return true;
  }

  /**
   * Adds a part of text. Text past the byte budget is cut at a line end (or the budget when no
   * line ends near it) and the rest becomes `next`. `text` is the whole part; characters before
   * {@link offsetOf} are skipped.
   */
  addText(part: Omit<DocumentPart, 'text' | 'offset'>, whole: string): void {
    if (!this.admit(part.number)) return;
    const offset = this.offsetOf(part.number);
    const text = whole.slice(offset);
    const left = this.limits.maxBytes - this.bytes;
    const size = utf8Bytes(text) + (part.notes ? utf8Bytes(part.notes) : 0);
    if (size <= left) {
      this.bytes += size;
      this.parts.push({ ...part, text, ...(offset ? { offset } : {}) });
      return;
    }
    if (left < 256 && this.parts.length > 0) {
      this.stop({ part: part.number, offset }, `${this.limits.maxBytes} bytes of text`);
      return;
    }
    const cut = cutAt(text, Math.max(left, 256));
    this.bytes += utf8Bytes(cut);
    const { notes: _notes, ...rest } = part;
    this.parts.push({ ...rest, text: cut, ...(offset ? { offset } : {}) });
    this.stop({ part: part.number, offset: offset + cut.length }, `${this.limits.maxBytes} bytes of text`);
  }

  /**
   * Adds a sheet's table (`rows` already limited to {@link rowsLeft}); `more` says rows remain in
   * the sheet after them.
   */
  addTable(
    part: Omit<DocumentPart, 'text' | 'offset'>,
    table: string,
    rowCount: number,
    more: boolean,
  ): void {
    const offset = this.offsetOf(part.number);
    this.rows += rowCount;
    this.bytes += utf8Bytes(table);
    this.parts.push({ ...part, text: table, ...(offset ? { offset } : {}) });
    if (more) this.stop({ part: part.number, offset: offset + rowCount }, `${this.limits.maxRows} rows`);
    else if (this.bytes >= this.limits.maxBytes) {
      this.stop({ part: part.number + 1, offset: 0 }, `${this.limits.maxBytes} bytes of text`);
    }
  }

  /** Byte budget left for a table. */
  get bytesLeft(): number {
    return this.limits.maxBytes - this.bytes;
  }

  stop(next: DocumentPosition, by: string): void {
    this.next = next;
    this.stoppedBy = by;
  }

  /** The result; a `next` past the last part (or the range's end) is dropped. */
  result(kind: ExtractedDocument['kind'], totalParts: number): ExtractedDocument {
    const end = Math.min(this.lastPart, totalParts);
    const next = this.next && this.next.part <= end ? this.next : undefined;
    return {
      kind,
      totalParts,
      parts: this.parts,
      ...(next ? { next, stoppedBy: this.stoppedBy } : {}),
    };
  }
}

/** A prefix of `text` of at most `maxBytes` UTF-8 bytes, ending at a line end when one is in its last half. */
function cutAt(text: string, maxBytes: number): string {
  let end = Math.min(text.length, maxBytes);
  while (end > 0 && utf8Bytes(text.slice(0, end)) > maxBytes) end = Math.floor(end * 0.9);
  const line = text.lastIndexOf('\n', end);
  if (line > end / 2) end = line + 1;
  // Never split a surrogate pair.
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return text.slice(0, end);
}
