/** Unit tests of snapshot compaction, diffs and the line budget. */
import { describe, expect, it } from 'vitest';
import { untrustedText } from '../src/sanitize.js';
import { budgetLines } from '../src/snapshot/capture.js';
import { actionableRefs, compactSnapshot } from '../src/snapshot/compact.js';
import { diffSnapshots, renderDiff } from '../src/snapshot/diff.js';

const RAW = `- generic [active] [ref=e1]:
  - banner [ref=e2]:
    - navigation [ref=e3]:
      - list [ref=e4]:
        - listitem [ref=e5]:
          - link "Home" [ref=e6] [cursor=pointer]:
            - /url: /a
  - main [ref=e9]:
    - generic [ref=e11]:
      - heading "Title" [level=1] [ref=e12]
      - generic [ref=e15] [cursor=pointer]: Clickable div
      - generic [ref=e16]:
        - textbox "Name" [ref=e18]: v
        - checkbox [checked] [ref=e19]
        - button "Send" [disabled] [ref=e22]
      - generic "More" [ref=e35]`;

describe('compactSnapshot', () => {
  it('drops layout containers and refs of non-actionable elements, keeps every actionable ref', () => {
    const compact = compactSnapshot(RAW);
    expect(compact).toBe(`- banner:
  - navigation:
    - list:
      - listitem > link "Home" [ref=e6] [url=/a]
- main:
  - heading "Title" [level=1]
  - generic [ref=e15] [cursor=pointer]: Clickable div
  - textbox "Name" [ref=e18]: v
  - checkbox [checked] [ref=e19]
  - button "Send" [disabled] [ref=e22]
  - generic "More" [ref=e35]`);
    expect(actionableRefs(compact)).toEqual(actionableRefs(RAW));
    expect(compact.length).toBeLessThan(RAW.length * 0.7);
  });

  it('says a name repeated by the only child once', () => {
    const raw =
      '- heading "Story" [level=3] [ref=e1]:\n  - link "Story" [ref=e2] [cursor=pointer]:\n    - /url: /s\n- heading "Two" [ref=e3]:\n  - link "Other" [ref=e4]';
    expect(compactSnapshot(raw)).toBe(
      '- heading [level=3] > link "Story" [ref=e2] [url=/s]\n- heading "Two":\n  - link "Other" [ref=e4]',
    );
  });
});

describe('diffSnapshots', () => {
  it('lists added and removed lines', () => {
    const diff = diffSnapshots('- a\n- b [ref=e1]\n- c', '- a\n- b2 [ref=e4]\n- c');
    expect(diff).toEqual({ added: ['- b2 [ref=e4]'], removed: ['- b [ref=e1]'] });
    expect(renderDiff(diff)).toBe(
      'Removed (1 line(s)):\n  - b [ref=e1]\nAdded (1 line(s)):\n  - b2 [ref=e4]',
    );
    expect(renderDiff(diffSnapshots('- a', '- a'))).toMatch(/No change/);
  });
});

describe('budgetLines', () => {
  const text = Array.from({ length: 100 }, (_, i) => `line ${i}`).join('\n');
  it('cuts on line boundaries with a marker giving the next offset', () => {
    const cut = budgetLines(text, 0, 50, (n) => `offset=${n}`);
    expect(cut.nextOffset).toBe(7);
    expect(cut.text).toMatch(
      /^line 0\n(.|\n)*line 6\n\[truncated: 93 more lines \(\d+ bytes\) of 100; offset=7\]$/,
    );
    const rest = budgetLines(text, 95, 1000, (n) => `offset=${n}`);
    expect(rest.text).toBe('line 95\nline 96\nline 97\nline 98\nline 99');
    expect(rest.nextOffset).toBeUndefined();
  });
  it('cuts an over-long single line instead of returning nothing', () => {
    const cut = budgetLines('x'.repeat(1000), 0, 10, () => 'more');
    expect(cut.text.startsWith('xxxxxxxxxx')).toBe(true);
  });
});

describe('untrustedText (ALL-06)', () => {
  it('removes zero-width characters, shows bidi and tag characters, keeps emoji joiners, drops unsafe links', () => {
    expect(untrustedText('a\u200bb\u202Ec\u{E0041}\u{E0042}d 👩‍💻')).toBe(
      'ab⟦U+202E⟧c⟦hidden tag text: "AB"⟧d 👩‍💻',
    );
    expect(untrustedText('[x](javascript:alert(1)) [y](https://example.org/)')).toMatch(
      /^x ⟦unsafe link removed \(javascript:\)⟧ \[y\]\(https:\/\/example.org\/\)$/,
    );
  });
});
