/**
 * GH-04 / ALL-06: the sanitised text is read by browsers and by Markdown renderers, which find
 * tags by different rules (WHATWG tokenizer vs CommonMark §4.6 HTML blocks and §6.6 raw HTML). The
 * oracle renders each output with markdown-it (html on, CommonMark) and marked (GFM), parses that
 * HTML and the raw output with parse5 (a browser's parser) and asserts that no reading holds an
 * event handler, a dangerous element, a comment or an unsafe URL.
 */
import MarkdownIt from 'markdown-it';
import { marked } from 'marked';
import { parse } from 'parse5';
import { describe, expect, it } from 'vitest';
import { sanitizeUntrusted } from '../src/untrusted.js';
import { DANGEROUS_ELEMENTS } from './untrusted-support.js';

const markdownIt = new MarkdownIt({ html: true, linkify: true });
const URL_ATTRIBUTE =
  /^(?:.*:)?(?:href|src|action|formaction|srcset|imagesrcset|data|poster|background|to|from|values|content)$/;
const UNSAFE_URL = /(?:^|[,;=])(?:javascript|vbscript|data|file):/;

interface HtmlNode {
  nodeName: string;
  tagName?: string;
  attrs?: { name: string; value: string }[];
  childNodes?: HtmlNode[];
  content?: HtmlNode;
}

/** What a browser would run, load or hide in `html`. */
function hazards(html: string): string[] {
  const found: string[] = [];
  const walk = (node: HtmlNode) => {
    if (node.nodeName === '#comment') found.push('comment');
    if (node.tagName && DANGEROUS_ELEMENTS.has(node.tagName)) found.push(`<${node.tagName}>`);
    for (const { name, value } of node.attrs ?? []) {
      if (name.startsWith('on')) found.push(`${node.tagName} ${name}`);
      const plain = value.replace(/[\s\p{Cc}\p{Cf}]/gu, '').toLowerCase();
      if (URL_ATTRIBUTE.test(name) && UNSAFE_URL.test(plain)) found.push(`${node.tagName} ${name}=${value}`);
    }
    for (const child of node.childNodes ?? []) walk(child);
    if (node.content) walk(node.content);
  };
  walk(parse(html) as unknown as HtmlNode);
  return found;
}

/** The hazards of `text` as a browser, markdown-it and marked read it: {} when inert. */
function liveIn(text: string): Record<string, string[]> {
  const readings: Record<string, string> = {
    browser: text,
    'markdown-it': markdownIt.render(text),
    marked: marked.parse(text, { async: false }),
  };
  const live: Record<string, string[]> = {};
  for (const [reader, html] of Object.entries(readings)) {
    const found = hazards(html);
    if (found.length > 0) live[reader] = found;
  }
  return live;
}

const P = '<img src=x onerror=alert(1)>';

// The reported inputs: unchanged by the old sanitiser, live in markdown-it and marked.
const REPORTED = [
  `<a @="${P}">`,
  `<a title="x" @="${P}">`,
  `</a title="${P}">`,
  `</a x y="${P}">`,
  `<a/title="${P}">`,
  `<a title="${P}"x>`,
  `<abé x="${P}">`,
  `<a bé="${P}">`,
  `<a b="${P}"c="d">`,
  `<a b='c'd="${P}">`,
  `<a b="c"d="${P}">`,
  `<a b\n\n="${P}">`,
  `<a title="x\n\n${P}">`,
  `<a title="\n\n${P}\n\n">`,
  `\`<a title="\`${P}">`,
  '<scr<script>ipt>alert(1)</script>',
  '<a<script>alert(1)</script>',
  // Markdown blocks cut a tag that spans lines: a blank line, a list item or a block quote ending.
  '<div title="x\n\ny"> then <i title=" onerror=alert(1) ">',
  '- <div title="x\ny"> <i title=" onerror=alert(1) ">',
  '> <div title="x\ny"> <i title=" onerror=alert(1) ">',
  // Dropping an attribute joins its neighbours into a Markdown link (marked renders it).
  '<a x=[y]( onclick=z javascript:alert(1))>x</a>',
];

// Third review: long and backslash-only definition labels, leading zeros in character references,
// markup that never ends (it kept nothing after it), autolinks with other schemes, non-ASCII spaces.
const LONG_LABEL = (label: string, use = label) => `[${label}]: javascript:alert(1)\n\n[x][${use}]`;
const LINES = Array.from({ length: 20 }, () => 'a'.repeat(60));
const REVIEW_3: [string, string, string][] = [
  ['F1 999-character label', LONG_LABEL('a'.repeat(999)), ''],
  ['F1 1000-character label', LONG_LABEL('a'.repeat(1000)), ''],
  ['F1 1500-character label', LONG_LABEL('a'.repeat(1500)), ''],
  ['F1 label over 20 lines', LONG_LABEL(LINES.join('\n'), LINES.join(' ')), ''],
  [
    'F2 `\\a` label',
    '[\\a]: javascript:alert(1)\n\n[\\a]',
    '[\\a]: ⟦unsafe link removed (javascript:)⟧\n\n[\\a]',
  ],
  [
    'F2 `\\ ` label',
    '[\\ ]: javascript:alert(1)\n\n[x][\\ ]',
    '[\\ ]: ⟦unsafe link removed (javascript:)⟧\n\n[x][\\ ]',
  ],
  [
    'F2 `\\]` label',
    '[\\]]: javascript:alert(1)\n\n[x][\\]]',
    '[\\]]: ⟦unsafe link removed (javascript:)⟧\n\n[x][\\]]',
  ],
  [
    'F2 `\\*` label in a block quote',
    '> [\\*]: javascript:alert(1)\n\n[x][\\*]',
    '> [\\*]: ⟦unsafe link removed (javascript:)⟧\n\n[x][\\*]',
  ],
  [
    'F3 leading zeros in HTML',
    '<div>\n&#x00000202E;evil&#x0000E0041;&#x000000200B;x\n</div>',
    '<div>\n⟦U+202E⟧evil⟦hidden tag text: "A"⟧x\n</div>',
  ],
  ['F3 leading zeros in an attribute', '<b title="&#x00000202E;x">y</b>', '<b title="⟦U+202E⟧x">y</b>'],
  ['F3 eleven decimal digits', '&#0000000008238;evil', '⟦U+202E⟧evil'],
  [
    'P1 unclosed script in inline code',
    'Add a `<script>` tag to index.html.\n\nThen run npm start and observe the error.',
    'Add a `&lt;script>` tag to index.html.\n\nThen run npm start and observe the error.',
  ],
  [
    'P1 unclosed iframe in inline code',
    'The `<iframe>` element does not resize.\n\nSteps: open it. <img src=x onerror=alert(1)>',
    'The `&lt;iframe>` element does not resize.\n\nSteps: open it. <img src=x>',
  ],
  [
    'P1 unclosed style, twice',
    '`<style>` or `<STYLE>`, then <b onclick=x>b</b>',
    '`&lt;style>` or `&lt;STYLE>`, then <b>b</b>',
  ],
  [
    'P1 unclosed comment in inline code',
    'Note that `<!--` starts a comment in HTML.\n\nRest of the bug report.',
    'Note that `&lt;!--` starts a comment in HTML.\n\nRest of the bug report.',
  ],
  [
    'P1 closed comment, then an unclosed one',
    '<!-- a --> b <!-- c <i onclick=x>',
    '⟦hidden HTML comment removed⟧ b &lt;!-- c <i>',
  ],
  [
    'P1 unclosed script with a handler',
    '<script src=x onerror=alert(1)>',
    '&lt;script src=x onerror=alert(1)>',
  ],
  [
    'P1 script that its last `</script>` does not close (double-escaped)',
    '<script><!--<script></script> x --> <img src=x onerror=alert(1)> tail',
    '&lt;script>⟦hidden HTML comment removed⟧ <img src=x> tail',
  ],
  [
    'P4 unclosed tag with a handler',
    'hello <x onclick="a\nlots of prose\n\nmore prose\n\nthe end',
    'hello &lt;x onclick="a\nlots of prose\n\nmore prose\n\nthe end',
  ],
  [
    'P4 tags after an unclosed tag are still neutralised',
    'hello <x onclick="a\n<img src=x onerror=alert(1)>\n\n[x](javascript:alert(1))',
    'hello &lt;x onclick="a\n<img src=x>\n\nx ⟦unsafe link removed (javascript:)⟧',
  ],
  ['P2 C++ template', 'std::vector<std::string> v;', 'std::vector&lt;std::string> v;'],
  ['P2 in inline code', '`std::vector<std::string> v;`', '`std::vector&lt;std::string> v;`'],
  [
    'P2 in fenced code',
    '```cpp\nstd::vector<std::pair<int,int>> v;\n```',
    '```cpp\nstd::vector&lt;std::pair&lt;int,int>> v;\n```',
  ],
  [
    'P2 XML in fenced code',
    '```xml\n<xsl:apply-templates/>\n<ns0:item/>\n```',
    '```xml\n&lt;xsl:apply-templates/>\n&lt;ns0:item/>\n```',
  ],
  [
    'P2 other schemes in prose',
    'see <urn:isbn:0451450523>, <tel:+1234>, <ftp://x.org/a> and <vscode://file/x>',
    'see &lt;urn:isbn:0451450523>, &lt;tel:+1234>, &lt;ftp://x.org/a> and &lt;vscode://file/x>',
  ],
  ['P2 javascript: autolink', 'go <javascript:alert(1)>', 'go &lt;javascript:alert(1)>'],
  ...['\u00A0', '\u3000', '\u2003', '\u202F', '\u205F', '\u1680'].map((space): [string, string, string] => [
    `F5 autolink with U+${space.charCodeAt(0).toString(16).toUpperCase()}`,
    `<javascript:alert(1)${space}>`,
    `&lt;javascript:alert(1)${space}>`,
  ]),
  [
    'F4 selectors chained through tags',
    'x\uFE0F<b>\uFE0F</b><i>\uFE0F</i><u>\uFE0F</u>',
    'x\uFE0F<b></b><i></i><u></u>',
  ],
  ['F4 selector in a tag left open', '<a/\uFE0F onerror=alert(1)', '&lt;a/\uFE0F onerror=alert(1)'],
];

/** Fourth review: what the third one's escaping let through. */
const REVIEW_4: [string, string, string][] = [
  [
    'G1 unclosed iframe whose attribute holds a script',
    '<iframe srcdoc="<script>alert(1)</script>">',
    '&lt;iframe srcdoc="&lt;script>alert(1)&lt;/script>">',
  ],
  [
    'G1 unclosed style whose attributes are a tag',
    'Use <style <img src=x onerror=alert(1)>',
    'Use &lt;style &lt;img src=x onerror=alert(1)>',
  ],
  [
    'G1 unclosed iframe whose attribute opens a comment',
    '<iframe src=x title="<!--">--> <img src=x onerror=alert(1)>',
    '&lt;iframe src=x title="&lt;!--">--> <img src=x>',
  ],
  [
    'G1 unclosed script whose attribute holds a tag, then prose',
    '<script x="\n\n<img src=x onerror=alert(1)>">\n\nmore',
    '&lt;script x="\n\n&lt;img src=x onerror=alert(1)>">\n\nmore',
  ],
  [
    'G2 escaping an autolink makes a longer one',
    'go <javascript:alert(1)<ab:y>',
    'go &lt;javascript:alert(1)&lt;ab:y>',
  ],
  ['G2 a chain of three', 'a <javascript:x<ab:c<ab:d>>> b', 'a &lt;javascript:x&lt;ab:c&lt;ab:d>>> b'],
  ['G2 no scheme before the escaped one', '<div<javascript:alert(1)>', '<div&lt;javascript:alert(1)>'],
  ['G3 `<` before an autolink', 'x <<javascript:alert(1)>>', 'x <&lt;javascript:alert(1)>>'],
  [
    'G3 selector and `<` before an autolink',
    '<\uFE0E<javascript:alert(1)>',
    '<\uFE0E&lt;javascript:alert(1)>',
  ],
  ['G4 selector that a rebuilt tag would put after a space', 'x<a title="<"\uFE0F>', 'x<a title="&lt;">'],
  [
    'G4 selector-named attribute whose value holds a handler',
    '<a x="<"\uFE0E= onerror=alert(1)>',
    '<a x="&lt;">',
  ],
  [
    'G6 `=`-named attribute after a value-less one, a handler between',
    "<a y onclick=1 =' x>' onerror=alert(1)>",
    "<a y x>' onerror=alert(1)>",
  ],
  ['G6 `=`-named attribute first', '<a =x onclick=1>', '<a>'],
  ['G5 attribute names `<` and `&lt;`: one once written back', '<b <=1 &LT;=2>x</b>', '<b &lt;=1>x</b>'],
  ['G5 attribute names `&lt;` and `</`', '<b title=x\n&lt; =y\n</i>z</b>', '<b title=x &lt; =y i>z</b>'],
];

// The breaker's wider set, classic vectors, and text a browser reads as text (RCDATA, RAWTEXT,
// CDATA) that a Markdown reader might read as a tag.
const CORPUS = [
  ...REPORTED,
  '> <div title="x\n> y"> <i title=" onerror=alert(1) ">',
  `<a<img src=x onerror=alert(1)>`,
  `<a b=c"${P}">`,
  `<a\`="${P}">`,
  `<a title='${P}' x="'>`,
  `<a title=\`${P}\`>`,
  `<a title="${P}`,
  `<1a title="${P}">`,
  `<a\ntitle="${P}">`,
  `<a title = "${P}">`,
  `<a title=="${P}">`,
  `<?x ${P} ?>`,
  `<!x ${P}>`,
  `<![CDATA[ ${P} ]]>`,
  `<!DOCTYPE ${P}>`,
  `<!-- ${P} --!>`,
  `<!-- a -- ${P} -->`,
  `<!--${P}`,
  `<a title="</style>${P}">`,
  `<a title="-->${P}">`,
  `<!-- <a title="-->${P}"> -->`,
  `<script>a</script >${P}`,
  `<a\tb="${P}">`,
  `<a\rb="${P}">`,
  `<a title="x\n\ny">${P}`,
  `[<a title="](x)">${P}`,
  `<a title="\\"${P}">`,
  `<a title="&quot;${P}">`,
  ...['title', 'textarea', 'xmp', 'noscript', 'noembed', 'noframes', 'iframe', 'style', 'script'].flatMap(
    (t) => [`<${t}>${P}</${t}>`, `<${t}><a title="</${t}>${P}"></${t}>`, `<${t}>\n\n${P}\n\n</${t}>`],
  ),
  `<plaintext>${P}`,
  `<svg><![CDATA[${P}]]></svg>`,
  `<math><![CDATA[</math>${P}]]>`,
  `<svg><style><a title="</style>${P}"></style></svg>`,
  `<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>`,
  '<IMG SRC=JaVaScRiPt:alert(1)>',
  '<IMG SRC=`javascript:alert(1)`>',
  '<IMG """><SCRIPT>alert(1)</SCRIPT>">',
  '<IMG SRC=# onmouseover="alert(1)">',
  '<IMG SRC=/ onerror="alert(1)"></img>',
  '<SCRIPT/XSS SRC="http://x/xss.js"></SCRIPT>',
  '<BODY onload!#$%&()*~+-_.,:;?@[/|\\]^`=alert(1)>',
  '<<SCRIPT>alert(1);//\\<</SCRIPT>',
  '<SCRIPT SRC=http://x/xss.js?< B >',
  '<iframe src=http://x/scriptlet.html <',
  '<svg><animate onbegin=alert(1) attributeName=x dur=1s>',
  '<details open ontoggle=alert(1)>',
  '<a href="jav&#x09;ascript:alert(1)">x</a>',
  '<a href="&#14;javascript:alert(1)">x</a>',
  '<TABLE BACKGROUND="javascript:alert(1)">',
  '<DIV STYLE="background-image: url(javascript:alert(1))">',
  '<META HTTP-EQUIV="refresh" CONTENT="0;url=data:text/html;base64,PHNjcmlwdD4=">',
  '[x](javascript:alert(1))',
  '[x]( javascript:alert(1) )',
  '[x](<javascript:alert(1)>)',
  '![x](javascript:alert(1))',
  '[a `]` b](javascript:alert(1))',
  '[a [b] c](javascript:alert(1))',
  '[x][r]\n\n[r]: javascript:alert(1)',
  '[x][r]\n\n   [r]:\n   <javascript:alert(1)> "t"',
  '[x][a b]\n\n[a\nb]: javascript:alert(1)',
  '> [x][r]\n>\n> [r]: javascript:alert(1)',
  '- [x][r]\n\n  [r]: javascript:alert(1)',
  '<javascript:alert(1)>',
  '[x](java&#x09;script:alert(1))',
  '[x](&#x6A;avascript:alert(1))',
  '[x](javascript&colon;alert(1))',
  ...REVIEW_3.map(([, input]) => input),
  ...REVIEW_4.map(([, input]) => input),
];

/** Seeded pieces of HTML, Markdown and attack text joined at random: 1,500 inputs. */
function fuzzCorpus(count: number): string[] {
  const pieces = [
    '<a',
    '<div',
    '</a',
    ' title="',
    ' t=',
    '"',
    "'",
    '`',
    '\n',
    '\n\n',
    '>',
    ' ',
    P,
    'x',
    '[x](',
    'javascript:alert(1)',
    ')',
    '- ',
    '> ',
    '<!--',
    '-->',
    '/',
    '=',
    '@',
    'é',
    '<script>',
    '</script>',
    '<textarea>',
    '<title>',
    '<svg>',
    '<![CDATA[',
    ']]>',
    '    ',
    '```',
    '|',
    '[r]: ',
    '<javascript:alert(1)>',
    '&lt;',
    '&#10;',
    '\\',
    '<p',
    ' onclick=',
    '<b>',
    'y"',
  ];
  let seed = 7;
  const random = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  return Array.from({ length: count }, () => {
    let text = '';
    for (let n = 3 + Math.floor(random() * 8); n > 0; n--)
      text += pieces[Math.floor(random() * pieces.length)];
    return text;
  });
}

describe('F1: inert for browsers and for CommonMark/GFM renderers alike', () => {
  it.each(REPORTED.map((input) => [input]))('%j: each reported bypass is neutralised', (input) => {
    const { text } = sanitizeUntrusted(input);
    expect(liveIn(text), JSON.stringify(text)).toEqual({});
  });

  it('the whole corpus is inert, also after a second pass', () => {
    for (const input of CORPUS) {
      const { text } = sanitizeUntrusted(input);
      expect(liveIn(text), `${JSON.stringify(input)} → ${JSON.stringify(text)}`).toEqual({});
      expect(sanitizeUntrusted(text).text, JSON.stringify(input)).toBe(text);
    }
  });

  it('random mixes of HTML, Markdown and attack pieces are inert', () => {
    for (const input of fuzzCorpus(1_500)) {
      const { text } = sanitizeUntrusted(input);
      expect(liveIn(text), `${JSON.stringify(input)} → ${JSON.stringify(text)}`).toEqual({});
    }
  });

  it('encodes `<`, `>` and line breaks inside a kept tag; a browser reads the same attributes', () => {
    expect(sanitizeUntrusted(`<a @="${P}">`).text).toBe('<a @="&lt;img src=x onerror=alert(1)&gt;">');
    expect(sanitizeUntrusted(`</a title="${P}">`).text).toBe('</a>');
    expect(sanitizeUntrusted('<scr<script>ipt>alert(1)</script>').text).toBe(
      '<scr&lt;script>ipt>alert(1)</script>',
    );
    const multiline = '<img\n  src="a.png"\n  alt="x\n\ny">';
    const { text, findings } = sanitizeUntrusted(multiline);
    expect(text).toBe('<img src="a.png" alt="x&#10;&#10;y">');
    expect(Object.values(findings).every((n) => n === 0)).toBe(true);
    const attrs = (html: string) =>
      (
        (parse(html) as unknown as HtmlNode).childNodes?.[0]?.childNodes?.[1]?.childNodes?.[0]?.attrs ?? []
      ).map((a) => [a.name, a.value]);
    expect(attrs(text)).toEqual(attrs(multiline));
    expect(attrs(sanitizeUntrusted(`<a title="x" @="${P}">`).text)).toEqual([
      ['title', 'x'],
      ['@', P],
    ]);
  });

  it('leaves one-line tags without `<` or `>` inside byte for byte', () => {
    const clean = '<a href="https://x.y/a?b=c&amp;d" title=\'t\'>x</a> <img src=a.png alt="a b"/> <br>';
    expect(sanitizeUntrusted(clean)).toMatchObject({ text: clean, changed: false });
  });
});

describe('third review: nothing live, nothing hidden, prose and code kept', () => {
  it.each(REVIEW_3)('%s', (_name, input, expected) => {
    const { text, changed } = sanitizeUntrusted(input);
    expect(changed).toBe(true);
    if (expected) expect(text).toBe(expected);
    else expect(text).toContain('⟦unsafe link removed (javascript:)⟧');
    expect(liveIn(text), JSON.stringify(text)).toEqual({});
    expect(sanitizeUntrusted(text).text).toBe(text);
    // What a reader sees once markup is gone holds no hidden character.
    const shown = parse(marked.parse(text, { async: false })) as unknown as HtmlNode;
    const textOf = (node: HtmlNode): string =>
      (node as { value?: string }).value ?? (node.childNodes ?? []).map(textOf).join('');
    expect(textOf(shown)).not.toMatch(/[\u200B\u202E\u{E0041}]|\uFE0F\uFE0F/u);
  });

  it.each(REVIEW_4)('%s', (_name, input, expected) => {
    const { text, changed } = sanitizeUntrusted(input);
    expect(changed).toBe(true);
    expect(text).toBe(expected);
    expect(liveIn(text), JSON.stringify(text)).toEqual({});
    expect(sanitizeUntrusted(text).text).toBe(text);
  });

  it('counts what it escaped', () => {
    const count = (input: string) => sanitizeUntrusted(input).findings;
    expect(count('`<script>` tag')).toMatchObject({ dangerousElements: 1 });
    expect(count('a `<!--` b')).toMatchObject({ htmlComments: 1 });
    expect(count('hello <x onclick="a\nb')).toMatchObject({ eventHandlers: 1 });
    expect(count('std::vector<std::string> v;')).toMatchObject({ unsafeLinks: 1 });
    expect(count('x\uFE0F<b>\uFE0F</b>')).toMatchObject({ invisibleCharacters: 1 });
  });
});
