/**
 * GH-04 / ALL-06 bypass regressions: HTML found the way browsers tokenize it (slash-separated
 * attributes, entities, newlines in tags, tags left open at the end, raw-text elements) and
 * Markdown link targets judged after every invisible character is gone. Each output is checked
 * by parsing it with parse5's full HTML parser (a browser's view), also after the steps a later
 * reader might apply: stripping ZWJ/ZWNJ and other format characters, GFM's tagfilter, and
 * concatenating two sanitised texts.
 */
import { parse } from 'parse5';
import { describe, expect, it } from 'vitest';
import { neutralize, sanitizeUntrusted } from '../src/untrusted.js';
import { DANGEROUS_ELEMENTS } from './untrusted-support.js';

const UNSAFE_SCHEME = /(?:^|[\s,;='"])(?:javascript|vbscript|data|file):/i;
const URL_ATTRIBUTES =
  /^(?:.*:)?(?:href|src|action|formaction|srcset|imagesrcset|content|values|to|from|by|data|poster|background)$/;
const FORMAT_CHARACTERS = /[\p{Cf}\p{Default_Ignorable_Code_Point}]/gu;

interface HtmlNode {
  nodeName: string;
  tagName?: string;
  attrs?: { name: string; value: string }[];
  childNodes?: HtmlNode[];
  content?: HtmlNode;
}

/** What a browser would run, load or hide in `html`: [] when it is inert. */
function liveHazards(html: string): string[] {
  const found: string[] = [];
  const walk = (node: HtmlNode) => {
    if (node.nodeName === '#comment') found.push('comment');
    if (node.tagName && DANGEROUS_ELEMENTS.has(node.tagName)) found.push(`<${node.tagName}>`);
    for (const { name, value } of node.attrs ?? []) {
      if (name.startsWith('on')) found.push(`${node.tagName} ${name}=`);
      const plain = value.replace(FORMAT_CHARACTERS, '').replace(/\s+/g, ' ');
      if (URL_ATTRIBUTES.test(name) && UNSAFE_SCHEME.test(` ${plain}`))
        found.push(`${node.tagName} ${name}=${value}`);
    }
    for (const child of node.childNodes ?? []) walk(child);
    if (node.content) walk(node.content);
  };
  walk(parse(html) as unknown as HtmlNode);
  return found;
}

/** Markdown links, images, definitions and autolinks with an unsafe target, once format characters are gone. */
function liveMarkdownLinks(text: string): string[] {
  const plain = text.replace(FORMAT_CHARACTERS, '');
  return [
    ...plain.matchAll(/\]\(\s*<?\s*(?:javascript|vbscript|data|file):/gi),
    ...plain.matchAll(/\]:\s*<?\s*(?:javascript|vbscript|data|file):/gi),
    ...plain.matchAll(/<(?:javascript|vbscript|data|file):[^\s<>]*>/gi),
  ].map((m) => m[0]);
}

/** GFM's tagfilter extension: these tags' `<` is escaped, so their content becomes live HTML. */
const tagfilter = (html: string) =>
  html.replace(/<(?=\/?(?:title|textarea|style|xmp|iframe|noembed|noframes|script|plaintext)\b)/gi, '&lt;');

/** Asserts that `out` is inert for every reader above. */
function expectInert(out: string, label: string) {
  for (const [view, text] of [
    ['as is', out],
    ['format characters stripped', out.replace(FORMAT_CHARACTERS, '')],
    ['GFM tagfilter', tagfilter(out)],
  ] as const) {
    expect(liveHazards(text), `${label} (${view}): ${JSON.stringify(out)}`).toEqual([]);
    expect(liveMarkdownLinks(text), `${label} (${view}): ${JSON.stringify(out)}`).toEqual([]);
  }
}

// Each reported bypass with the exact output it must now give (visible text kept).
const BYPASSES: [string, string, string][] = [
  ['slash before an event handler (img)', '<img/onerror=alert(1)/src=x>', '<img>'],
  ['slash before an event handler (svg)', '<svg/onload=alert(1)>', '<svg>'],
  ['slash before href', '<a/href="javascript:alert(1)">x</a>', '<a href="#unsafe-link-removed">x</a>'],
  ['slash before an event handler (body)', '<body/onload=alert(1)>', '<body>'],
  [
    'meta refresh to javascript:',
    'Hi <meta http-equiv="refresh" content="0;url=javascript:alert(1)"> there',
    'Hi ⟦meta tag removed⟧ there',
  ],
  ['tag left open at the end', 'Look: <img src=x onerror=alert(1) ', 'Look: &lt;img src=x onerror=alert(1) '],
  [
    'ZWJ inside the scheme',
    '[click](java\u200Dscript:alert(1))',
    'click ⟦unsafe link removed (javascript:)⟧',
  ],
  [
    'ZWNJ inside the scheme',
    '[click](java\u200Cscript:alert(1))',
    'click ⟦unsafe link removed (javascript:)⟧',
  ],
  [
    'data: href holding markup',
    '<a href="data:text/html,<script>alert(1)</script>">x</a>',
    '<a href="#unsafe-link-removed">x</a>',
  ],
  [
    'data: href',
    '<a href="data:text/html;base64,PHNjcmlwdD4=">x</a>',
    '<a href="#unsafe-link-removed">x</a>',
  ],
];

// Variations: case, entities, whitespace inside tags, quoting, raw-text elements, SVG, Markdown shapes.
const VARIATIONS: string[] = [
  '<IMG/ONERROR=alert(1)/SRC=x>',
  '<ImG sRc=x OnErRoR=alert(1)>',
  '<SVG/ONLOAD=alert(1)>',
  '<A/HREF="JaVaScRiPt:alert(1)">x</A>',
  '<a href="&#106;avascript:alert(1)">x</a>',
  '<a href="&#x6A;avascript:alert(1)">x</a>',
  '<a href="&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058alert(1)">x</a>',
  '<a href="javascript&colon;alert(1)">x</a>',
  '<a href="java&NewLine;script&colon;alert(1)">x</a>',
  '<a href="java&Tab;script:alert(1)">x</a>',
  '<a href="java\u200Dscript:alert(1)">x</a>',
  '<a href=" \n javascript:alert(1)">x</a>',
  '<img src=x\nonerror=alert(1)>',
  '<img src=x\tonerror\n=\nalert(1)>',
  '<img src=x on\nerror=alert(1)>',
  '<img\nsrc=x\r\nonerror=alert(1)\n>',
  '<img src="x"onerror=alert(1)>',
  '<svg><script>alert(1)</script></svg>',
  '<svg><script href="data:,alert(1)" /></svg>',
  '<svg><a xlink:href="javascript:alert(1)"><text>x</text></a></svg>',
  '<svg><animate attributeName=href values="javascript:alert(1)"/></svg>',
  '<svg><set attributeName=href to="javascript:alert(1)"/></svg>',
  '<math><a href="javascript:alert(1)">x</a></math>',
  `<a href='javascript:alert("1")'>x</a>`,
  `<img src="x" alt='"' onerror="alert('1')">`,
  `<a title="a'b" href=javascript:alert(1)>x</a>`,
  '<a href="https://ok" href="javascript:alert(1)">x</a>',
  '<img srcset="ok.png 1x, javascript:alert(1) 2x">',
  '<form action=javascript:alert(1)><button formaction=javascript:alert(1)>x</button></form>',
  '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
  '<object data="javascript:alert(1)">fallback</object>',
  '<embed src=javascript:alert(1)>',
  '<base href="javascript:alert(1)//">',
  '<link rel=stylesheet href="data:text/css,*{display:none}">',
  '<style><!--</style><img src=x onerror=alert(1)>-->',
  '<title><a title="</title><img src=x onerror=alert(1)>">',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>',
  '<textarea><img src=x onerror=alert(1)></textarea>',
  '<xmp><img src=x onerror=alert(1)></xmp>',
  '<template><img src=x onerror=alert(1)></template>',
  '<plaintext><img src=x onerror=alert(1)>',
  '<![CDATA[<img src=x onerror=alert(1)>]]>',
  '<!-- c --!><img src=x onerror=alert(1)>',
  '<!--><img src=x onerror=alert(1)>',
  '<!--<img src=x onerror=alert(1)>',
  '<?x <img src=x onerror=alert(1)>',
  '<img src=x alt="unclosed onerror=alert(1)',
  "<img src=x alt='",
  '<script>alert(1)',
  '</a onclick=alert(1)>',
  '[x](JaVaScRiPt:alert(1))',
  '[x](java&#115;cript:alert(1))',
  '[x](java&NewLine;script:alert(1))',
  '[x](javascript\\:alert(1))',
  '[x](<java\u200Dscript:alert(1)>)',
  '![img](java\u200Dscript:alert(1))',
  '[a [b] c](javascript:alert(1))',
  '[x](javascript:alert((1)))',
  '[multi\nline](javascript:alert(1))',
  '[x](\n  javascript:alert(1) "t")',
  '[x](data:text/html,<script>alert(1)</script>)',
  '> [ref]: javascript:alert(1)',
  '- [ref]:\n  java\u200Cscript:alert(1)',
  '<java\u200Dscript:alert(1)>',
  '<data:text/html,x>',
];

describe('GH-04 bypasses of the HTML/Markdown neutraliser', () => {
  it.each(BYPASSES)('%s', (_label, input, expected) => {
    const out = neutralize(input);
    expect(out).toBe(expected);
    expectInert(out, input);
  });

  it.each(VARIATIONS.map((v) => [v]))(
    '%j is inert for browsers, tag filters and invisible-character strips',
    (input) => {
      const result = sanitizeUntrusted(input);
      expect(result.changed).toBe(true);
      expectInert(result.text, input);
    },
  );

  it('counts what it neutralised', () => {
    const { findings } = sanitizeUntrusted(
      '<img/onerror=alert(1)/src=x> <a/href="javascript:alert(1)">x</a> <meta http-equiv=refresh content="0;url=javascript:alert(1)"> <!-- hidden -->',
    );
    expect(findings).toMatchObject({
      eventHandlers: 1,
      unsafeLinks: 1,
      dangerousElements: 1,
      htmlComments: 1,
    });
  });

  it('keeps visible text of replaced tags, raw-text elements and escaped markup', () => {
    expect(neutralize('<form action=/x>Name: <input name=n></form>')).toBe(
      '⟦form tag removed⟧Name: <input name=n>⟦form end tag removed⟧',
    );
    expect(neutralize('<textarea>note</textarea>')).toBe(
      '⟦textarea tag removed⟧note⟦textarea end tag removed⟧',
    );
    expect(neutralize('<noscript>shown now</noscript>')).toBe(
      '⟦noscript tag removed⟧shown now⟦noscript end tag removed⟧',
    );
    expect(neutralize('<object data="javascript:x">fallback</object>')).toBe(
      '⟦object tag removed⟧fallback⟦object end tag removed⟧',
    );
    expect(neutralize('I </3 this <?php echo 1 ?> <!DOCTYPE html>')).toBe(
      'I &lt;/3 this &lt;?php echo 1 ?> &lt;!DOCTYPE html>',
    );
    expect(neutralize('<style><!--</style><img src=x onerror=alert(1)>-->')).toBe(
      '⟦style element removed⟧<img src=x>-->',
    );
    expect(neutralize('<svg><script>alert(1)</script></svg> after')).toBe(
      '<svg>⟦script element removed⟧</svg> after',
    );
  });

  it('keeps the attributes it does not neutralise byte for byte, quoting and case included', () => {
    expect(neutralize(`<IMG SRC='a.png' ALT="x y" onerror=z width=3/>`)).toBe(
      `<IMG SRC='a.png' ALT="x y" width=3/>`,
    );
    expect(neutralize('<img src=x onerror=y />')).toBe('<img src=x />');
    expect(neutralize('<a href="https://ok" title=t>x</a> <b>bold</b>')).toBe(
      '<a href="https://ok" title=t>x</a> <b>bold</b>',
    );
    expect(neutralize('if a<b && c>d then')).toBe('if a<b && c>d then');
    // Nested quotes: the onclick is inside the title's value, not an attribute.
    expect(neutralize(`<a title='x" onclick="y'>t</a>`)).toBe(`<a title='x" onclick="y'>t</a>`);
  });

  it('leaves http(s), mailto and relative targets, and ZWJ in ordinary text', () => {
    const clean =
      '[mail](mailto:a@b.c) <mailto:a@b.c> <https://x.y> [rel](../a) [q](page?a=b:c) <img src="https://x/y.png" srcset="a.png 1x, https://x/b.png 2x"> 👩‍👩‍👧 क्‍ष';
    expect(neutralize(clean)).toBe(clean);
  });

  it('ALL-06: hidden characters written as character references are neutralised like the characters', () => {
    expect(neutralize('a &#x202E;b &#8203;c &ZeroWidthSpace;d &#xE0041;e &zwj;f')).toBe(
      'a ⟦U+202E⟧b c d ⟦hidden tag text: "A"⟧e &zwj;f',
    );
  });

  it('a tag, quote or `<` left open at the end cannot combine with what is appended next', () => {
    const heads = ['Look <img src=x alt="', "x <img alt='", 'x <img', 'x <', 'x </', 'x <a href=', '<svg'];
    const tails = [
      '" onerror=alert(1)>',
      "' onerror=alert(1)>",
      ' onerror=alert(1)>',
      'img src=x onerror=alert(1)>',
    ];
    for (const head of heads)
      for (const tail of tails) {
        const joined = neutralize(head) + neutralize(tail);
        expectInert(joined, `${head} + ${tail}`);
        expectInert(`${neutralize(head)}\n${neutralize(tail)}`, `${head} ⏎ ${tail}`);
      }
  });

  it('sanitising twice changes nothing more', () => {
    for (const input of [...BYPASSES.map((b) => b[1]), ...VARIATIONS]) {
      const once = neutralize(input);
      expect(neutralize(once), input).toBe(once);
    }
  });

  it('a large page-sized text is handled in linear time', () => {
    const chunk =
      'Some **Markdown** with <b>tags</b>, [a link](https://x.y/z) and <img src=x onerror=alert(1)>.\n';
    const big = chunk.repeat(20_000); // ~1.9 MB
    // CPU time of this process (other load does not inflate it), not wall time.
    const started = process.cpuUsage();
    const out = neutralize(big);
    const { user, system } = process.cpuUsage(started);
    expect((user + system) / 1000).toBeLessThan(5_000);
    expect(out).not.toMatch(/onerror/);
    expect(out.length).toBeGreaterThan(big.length * 0.8);
  });
});
