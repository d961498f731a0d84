/**
 * The result builder for third-party text: UntrustedText (neutralise, bound, count), the labelled
 * blocks and the result envelope `respond` (notice, lines, what was neutralised).
 */
import { describe, expect, it } from 'vitest';
import {
  block,
  indent,
  neutralizedField,
  respond,
  UNTRUSTED_NOTICE,
  UntrustedText,
} from '../src/untrusted.js';

describe('cut untrusted text', () => {
  it('GH-04 a cut never leaves a tag open or starts one inside an attribute value', () => {
    const text = new UntrustedText();
    // The budget cuts inside the alt value: the `>` that closed the tag is gone.
    const cut = text.clean('See <img src=x alt="a long description of the picture"> here', 20, 'more');
    expect(cut).toMatch(/^See &lt;img src=x alt="\n\[truncated/);
  });

  it('code keeps its markup exactly; only hidden characters are neutralised, and it says so', () => {
    const text = new UntrustedText();
    const source =
      '<!-- keep -->\n<a href="javascript:void(0)" onclick="go()">[x](data:y)</a> &ZeroWidthSpace;\n';
    expect(text.code(source)).toBe(source);
    expect(text.note()).toBeUndefined();
    expect(text.code('a\u202Eb\u200Bc', 100)).toBe('a⟦U+202E⟧bc');
    expect(text.note()).toBe('Neutralised in upstream text: 1 bidi control, 1 invisible character.');
    expect(text.code('<script>', 4, 'more')).toMatch(/^<scr\n\[truncated/);
  });
});

describe('respond', () => {
  it('heads text with the notice when untrusted text was used, and ends it with what was neutralised', () => {
    const u = new UntrustedText();
    const body = block('issue #1 body', u.clean('hi\u200B there'));
    const result = respond({ n: 1 }, ['Issue #1', indent(body)], u);
    const note = 'Neutralised in upstream text: 1 invisible character.';
    expect(result.structuredContent).toEqual({ n: 1, neutralized: note });
    expect(result.content).toEqual([
      {
        type: 'text',
        text: [
          UNTRUSTED_NOTICE,
          'Issue #1',
          '  <untrusted-data source="issue #1 body">',
          '  hi there',
          '  </untrusted-data>',
          note,
        ].join('\n'),
      },
    ]);
    expect(neutralizedField.neutralized.safeParse(note).success).toBe(true);
  });

  it('without untrusted text: no notice, no note; empty blocks vanish', () => {
    const result = respond({ ok: true }, ['Done.', block('empty', '')]);
    expect(result).toEqual({ content: [{ type: 'text', text: 'Done.' }], structuredContent: { ok: true } });
    expect(new UntrustedText().line('a\n  b')).toBe('a b');
  });
});
