/**
 * Demo scene: the SQLite server. The demo builds its own small sample database first — three related
 * tables (public-domain novels, their authors, generated library loans) — through the server itself,
 * started from the host config's entry plus `--allow-writes`. The scene then uses the config's
 * read-only server: list and describe the tables, a join, its query plan, and a write that SQLite
 * itself refuses on the read-only connection.
 */
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { connect } from '../connect.js';
import { readHostConfig } from '../host-config.js';
import type { DemoPlace, DemoScene } from './scene.js';
import { bold, dim, textOf } from './session.js';

const AUTHORS: [number, string, number][] = [
  [1, 'Jane Austen', 1775],
  [2, 'Charles Dickens', 1812],
  [3, 'Mary Shelley', 1797],
  [4, 'Herman Melville', 1819],
  [5, 'Mark Twain', 1835],
  [6, 'Arthur Conan Doyle', 1859],
];

const BOOKS: [number, string, number, number][] = [
  [1, 'Pride and Prejudice', 1813, 1],
  [2, 'Emma', 1815, 1],
  [3, 'Persuasion', 1817, 1],
  [4, 'Oliver Twist', 1838, 2],
  [5, 'A Christmas Carol', 1843, 2],
  [6, 'Great Expectations', 1861, 2],
  [7, 'Frankenstein', 1818, 3],
  [8, 'The Last Man', 1826, 3],
  [9, 'Moby-Dick', 1851, 4],
  [10, 'Bartleby, the Scrivener', 1853, 4],
  [11, 'The Adventures of Tom Sawyer', 1876, 5],
  [12, 'Adventures of Huckleberry Finn', 1884, 5],
  [13, 'A Study in Scarlet', 1887, 6],
  [14, 'The Hound of the Baskervilles', 1902, 6],
];

/** 60 generated loans: a fixed linear congruential sequence, so every run shows the same data. */
function loans(): [number, number, string, number][] {
  const rows: [number, number, string, number][] = [];
  let seed = 20240101;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed;
  };
  for (let id = 1; id <= 60; id++) {
    const book = (next() % BOOKS.length) + 1;
    const day = (next() % 28) + 1;
    const month = (next() % 12) + 1;
    rows.push([
      id,
      book,
      `2024-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`,
      next() % 4 === 0 ? 0 : 1,
    ]);
  }
  return rows;
}

const configPath = (place: DemoPlace) => join(place.repoRoot, 'test-harness/demo/mcp.json');

/** Creates the sample database through the server, started with --allow-writes. */
async function buildSampleDatabase(place: DemoPlace): Promise<void> {
  const { server } = readHostConfig(configPath(place), 'sqlite');
  const conn = await connect({
    ...server,
    args: [...(server.args ?? []), '--allow-writes'],
    cwd: place.repoRoot,
  });
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = (await conn.client.callTool({ name, arguments: args })) as CallToolResult;
    if (result.isError) throw new Error(`sample database: ${name} failed: ${textOf(result)}`);
  };
  const insert = async (table: string, columns: string[], rows: unknown[][]) => {
    const tuple = `(${columns.map(() => '?').join(', ')})`;
    await call('write_query', {
      query: `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${rows.map(() => tuple).join(', ')}`,
      params: rows.flat(),
    });
  };
  try {
    await call('create_table', {
      query: 'CREATE TABLE authors (id INTEGER PRIMARY KEY, name TEXT NOT NULL, born INTEGER)',
    });
    await call('create_table', {
      query:
        'CREATE TABLE books (id INTEGER PRIMARY KEY, title TEXT NOT NULL, year INTEGER, author_id INTEGER NOT NULL REFERENCES authors(id))',
    });
    await call('create_table', {
      query:
        'CREATE TABLE loans (id INTEGER PRIMARY KEY, book_id INTEGER NOT NULL REFERENCES books(id), borrowed_on TEXT NOT NULL, returned INTEGER NOT NULL)',
    });
    await call('write_query', { query: 'CREATE INDEX loans_book ON loans(book_id)' });
    await insert('authors', ['id', 'name', 'born'], AUTHORS);
    await insert('books', ['id', 'title', 'year', 'author_id'], BOOKS);
    await insert('loans', ['id', 'book_id', 'borrowed_on', 'returned'], loans());
  } finally {
    await conn.close();
  }
  console.log(
    dim(
      `\n(sample database ${join(place.scratch, 'library.db')}: ${AUTHORS.length} authors, ${BOOKS.length} books, 60 loans — ` +
        'created through the server with --allow-writes)',
    ),
  );
}

const TOP_AUTHORS =
  'SELECT a.name, count(*) AS loans FROM loans l JOIN books b ON b.id = l.book_id ' +
  'JOIN authors a ON a.id = b.author_id GROUP BY a.id ORDER BY loans DESC, a.name LIMIT 3';

export const sqliteScene: DemoScene = {
  server: 'sqlite',
  prepare: buildSampleDatabase,
  async run(session) {
    console.log(
      `\n${bold('Task: which authors does the library lend most — and can the model change the data?')}`,
    );
    await session.call('list_tables', {}, 'What is in the database (this server is read-only).');
    await session.call(
      'describe_table',
      { table_name: 'loans' },
      'Columns, the index and the foreign key of loans.',
    );
    await session.call(
      'read_query',
      { query: TOP_AUTHORS },
      'A join over the three tables, bounded and exact.',
    );
    await session.call('explain_query', { query: TOP_AUTHORS }, 'The query plan: which index the join uses.');
    await session.call(
      'read_query',
      { query: 'WITH done AS (SELECT id FROM loans WHERE returned = 1) DELETE FROM loans WHERE id IN done' },
      'A write dressed as a read: SQLite itself refuses it on the read-only connection.',
      true,
    );
  },
};
