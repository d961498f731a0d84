/**
 * One step of reading a statement through a named protocol portal (docs protocol-flow.html,
 * "Extended Query"), as a pg Submittable:
 *
 * - the first step sends the transaction's opening statement (BEGIN …), then Parse
 *   (the statement, unnamed), Bind (into portal `name`, with the parameters), Describe, Execute
 *   (at most `maxRows` rows) and Sync, in one socket write;
 * - each later step sends Execute + Sync on the same portal.
 *
 * Ending every step with Sync means a small result needs a single round trip (rows, CommandComplete
 * and ReadyForQuery arrive together), transaction start included. Inside the call's explicit transaction block the named portal
 * survives Sync, and ROLLBACK/COMMIT ends it. The extended protocol carries exactly one statement:
 * PostgreSQL refuses "a; b" at Parse ("cannot insert multiple commands into a prepared statement").
 * pg-cursor, by contrast, ends each step with Flush and needs an extra Close + Sync round trip.
 *
 * Rows are decoded here (types.ts parsers, text format) rather than through pg.Result, which builds
 * a row-object template per result that array rows never use. {@link Command} is the same kind of
 * Submittable for our own statements without results (BEGIN, COMMIT/ROLLBACK and the reset).
 */
import { parserFor } from './types.js';

/** The portal's name (one per call's transaction, which ends it). */
export const PORTAL_NAME = 'refmcp_portal';

export interface Field {
  name: string;
  dataTypeID: number;
  dataTypeModifier: number;
}

/** What one step brought back. */
export interface StepResult {
  rows: unknown[][];
  /** Columns, from the first step (Describe); later steps reuse them. */
  fields: Field[];
  /** The portal has more rows (Execute stopped at maxRows). */
  suspended: boolean;
  /** CommandComplete's tag word and count, when the statement finished in this step. */
  command?: string;
  rowCount?: number;
}

interface Wire {
  parse(q: { text: string; types?: number[] }, more: boolean): void;
  bind(c: { portal: string; values: (string | null)[] }, more: boolean): void;
  describe(c: { type: 'P'; name: string }, more: boolean): void;
  execute(c: { portal: string; rows: number }, more: boolean): void;
  sync(): void;
  stream?: { cork?(): void; uncork?(): void };
}

/** Parameters as text, as pg's prepareValue sends JSON scalars (null stays NULL). */
function textValue(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return typeof value === 'string' ? value : String(value);
}

/**
 * A statement of a step's prelude (the opening statements: ROLLBACK of the connection's previous
 * read, BEGIN, the session reset) failed: PostgreSQL skipped the rest of the batch, so the call's
 * own statement never ran. `cause` is PostgreSQL's (or the connection's) error.
 */
export class PreludeError extends Error {
  override name = 'PreludeError';
  constructor(override readonly cause: unknown) {
    super(`the transaction could not be opened: ${(cause as Error)?.message ?? String(cause)}`);
  }
}

/** A pg Submittable for one portal step; `done` settles when PostgreSQL is ready again. */
export class PortalStep {
  readonly done: Promise<StepResult>;
  private resolve!: (r: StepResult) => void;
  private reject!: (e: unknown) => void;
  private parsers: ((text: string) => unknown)[] = [];
  private command: string | undefined;
  private rowCount: number | undefined;
  private readonly rows: unknown[][] = [];
  private suspended = false;
  private completed = false;
  private failed = false;

  /** CommandCompletes still to come from the prelude statements (not ours to report). */
  private preludeLeft: number;

  /**
   * `first`: the statement, for the first step (later steps continue the portal). `prelude`:
   * statements without parameters (BEGIN …) sent ahead of it in the same batch, whose rows are
   * dropped — if one fails, PostgreSQL skips the rest of the batch up to Sync, and `done` rejects
   * with a {@link PreludeError}.
   */
  constructor(
    private readonly portal: string,
    private readonly maxRows: number,
    private readonly first: { text: string; values: unknown[] } | undefined,
    private fields: Field[] = [],
    private readonly prelude: readonly string[] = [],
  ) {
    this.preludeLeft = prelude.length;
    this.done = new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    if (fields.length) this.setFields(fields);
  }

  /** Called by pg when it is this step's turn on the connection. */
  submit(connection: Wire): void {
    const stream = connection.stream;
    stream?.cork?.();
    try {
      for (const text of this.prelude) {
        connection.parse({ text }, true);
        connection.bind({ portal: '', values: [] }, true);
        connection.execute({ portal: '', rows: 0 }, true);
      }
      if (this.first) {
        connection.parse({ text: this.first.text }, true);
        connection.bind({ portal: this.portal, values: this.first.values.map(textValue) }, true);
        connection.describe({ type: 'P', name: this.portal }, true);
      }
      connection.execute({ portal: this.portal, rows: this.maxRows }, true);
      connection.sync();
    } finally {
      stream?.uncork?.();
    }
  }

  private setFields(fields: Field[]): void {
    this.fields = fields;
    this.parsers = fields.map((f) => parserFor(f.dataTypeID));
  }

  handleRowDescription(msg: { fields: Field[] }): void {
    this.setFields(msg.fields);
  }

  handleDataRow(msg: { fields: (string | null)[] }): void {
    if (this.preludeLeft > 0) return; // a prelude statement's row (SELECT pg_advisory_unlock_all())
    const raw = msg.fields;
    const row = new Array<unknown>(raw.length);
    for (let i = 0; i < raw.length; i++) {
      const text = raw[i];
      row[i] = text === null || text === undefined ? null : (this.parsers[i] as (t: string) => unknown)(text);
    }
    this.rows.push(row);
  }

  handlePortalSuspended(): void {
    this.suspended = true;
  }

  handleCommandComplete(msg: { text?: string }): void {
    if (this.preludeLeft > 0) {
      this.preludeLeft--;
      return;
    }
    const tag = commandTag(msg.text ?? '');
    this.command = tag.command;
    this.rowCount = tag.rowCount;
    this.completed = true;
  }

  handleEmptyQuery(): void {
    this.completed = true;
  }

  handleError(error: unknown): void {
    // pg stops routing to this step; the ReadyForQuery after our Sync frees the connection.
    this.failed = true;
    this.reject(this.preludeLeft > 0 ? new PreludeError(error) : error);
  }

  handleReadyForQuery(): void {
    if (this.failed) return;
    this.resolve({
      rows: this.rows,
      fields: this.fields,
      suspended: this.suspended && !this.completed,
      ...(this.completed && this.command ? { command: this.command } : {}),
      ...(this.completed && this.rowCount !== undefined ? { rowCount: this.rowCount } : {}),
    });
  }

  // Never sent: COPY is refused before any SQL is sent (guard.ts).
  handleCopyInResponse(): void {
    this.handleError(new Error('COPY is not supported'));
  }

  handleCopyData(): void {}
}

/**
 * A CommandComplete tag ("SELECT 3", "INSERT 0 5", "BEGIN"): the command word and the row count
 * (docs protocol-message-formats.html, CommandComplete; INSERT carries an oid before the count).
 */
export function commandTag(text: string): { command?: string; rowCount?: number } {
  const m = /^([A-Za-z]+)(?: (\d+))?(?: (\d+))?/.exec(text);
  if (!m) return {};
  const count = m[3] ?? m[2];
  return { command: m[1], ...(count === undefined ? {} : { rowCount: Number(count) }) };
}

/**
 * One of our own statements without results — BEGIN, or ROLLBACK/COMMIT with the session reset —
 * as a simple Query message (several statements allowed): a pg Submittable that only reports
 * whether all of it succeeded. `done` rejects with the first error (PostgreSQL skips the rest).
 */
export class Command {
  readonly done: Promise<void>;
  private resolve!: () => void;
  private reject!: (e: unknown) => void;
  private failed = false;

  constructor(private readonly text: string) {
    this.done = new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  submit(connection: { query(text: string): void }): void {
    connection.query(this.text);
  }

  handleRowDescription(): void {}
  handleDataRow(): void {}
  handleCommandComplete(): void {}
  handleEmptyQuery(): void {}
  handlePortalSuspended(): void {}

  handleError(error: unknown): void {
    this.failed = true;
    this.reject(error);
  }

  handleReadyForQuery(): void {
    if (!this.failed) this.resolve();
  }

  handleCopyInResponse(): void {
    this.handleError(new Error('COPY is not supported'));
  }

  handleCopyData(): void {}
}

/** Runs `text` on `client` as a {@link Command}. */
export function command(client: { query(submittable: never): unknown }, text: string): Promise<void> {
  const submitted = new Command(text);
  client.query(submitted as never);
  return submitted.done;
}
