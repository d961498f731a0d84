/** The text table's cells, without a database: what is escaped so that a cell stays on its line. */
import { describe, expect, it } from 'vitest';
import { cellText, renderTable } from '../src/render.js';

describe('cellText', () => {
  it('escapes backslash, newline, carriage return, tab and the column bar', () => {
    expect(cellText('a\\b\nc\rd\te|f')).toBe('a\\\\b\\nc\\rd\\te\\|f');
  });

  it('shows text with nothing to escape as it is, NULL for null, other values as JSON', () => {
    expect(cellText('user7919@example.com')).toBe('user7919@example.com');
    expect(cellText(null)).toBe('NULL');
    expect(cellText({ k: 'v|w' })).toBe('{"k":"v\\|w"}');
    expect(cellText(12.5)).toBe('12.5');
  });
});

describe('renderTable', () => {
  it('keeps every row on one line', () => {
    const table = renderTable(
      [
        { name: 'id', type: 'bigint' },
        { name: 'bio', type: 'text' },
      ],
      [
        ['1', 'two\nlines'],
        ['2', 'plain'],
      ],
    );
    expect(table.split('\n')).toEqual(['id | bio', '---+-----------', '1  | two\\nlines', '2  | plain']);
  });
});
