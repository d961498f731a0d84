/** Suggestion blocks and the lines a unified-diff hunk shows (shared by the GitHub and GitLab servers). */
import { describe, expect, it } from 'vitest';
import { hasSuggestion, newFileLines, removedLines, rightLines } from '../src/upstream/suggestions.js';

const PATCH = [
  '@@ -3,4 +3,5 @@ fn',
  ' three',
  '-four',
  '+FOUR',
  '+four and a half',
  ' five',
  '\\ No newline at end of file',
  ' six',
].join('\n');

describe('suggestions', () => {
  it('finds ``` and ~~~ suggestion blocks, with or without a GitLab range, and nothing else', () => {
    expect(hasSuggestion('```suggestion\nx\n```')).toBe(true);
    expect(hasSuggestion('text\n  ~~~~suggestion:-2+1\nx\n~~~~')).toBe(true);
    expect(hasSuggestion('```ts\nsuggestion\n```')).toBe(false);
    expect(hasSuggestion('a ```suggestion inline')).toBe(false);
  });

  it('finds a suggestion fenced inside a block quote or list item (CommonMark container blocks)', () => {
    expect(hasSuggestion('> ```suggestion:-5+5\n> x\n> ```')).toBe(true);
    expect(hasSuggestion('>```suggestion\n>x\n>```')).toBe(true);
    expect(hasSuggestion('- ```suggestion:-5+5\n  x\n  ```')).toBe(true);
    expect(hasSuggestion('intro\n  * > ~~~suggestion\n')).toBe(true);
    expect(hasSuggestion('1. ```suggestion\n   x\n   ```')).toBe(true);
    expect(hasSuggestion('12) + ```suggestion')).toBe(true);
    expect(hasSuggestion('> quoted ```suggestion inline')).toBe(false);
    expect(hasSuggestion('- ```ts\n  suggestion\n  ```')).toBe(false);
  });

  it('maps new-file lines to old ones (undefined when added) and lists removed old lines', () => {
    expect([...newFileLines(PATCH)]).toEqual([
      [3, 3],
      [4, undefined],
      [5, undefined],
      [6, 5],
      [7, 6],
    ]);
    expect([...rightLines(PATCH)]).toEqual([3, 4, 5, 6, 7]);
    expect([...removedLines(PATCH)]).toEqual([4]);
    expect(newFileLines('no hunk here\n+x').size).toBe(0);
  });
});
