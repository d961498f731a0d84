/**
 * The core tools through the built server and real Chromium: refs from snapshots drive actions,
 * actions return diffs, forms, dialogs, tabs, logs with cursors, reading as Markdown, resources,
 * and untrusted text made visible (ALL-06).
 */
import type { Connection } from '@refmcp/test-harness';
import { assertNoInvisible, callChecked, callOk, resultText } from '@refmcp/test-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servePages, startServer } from './support.js';

let site: Awaited<ReturnType<typeof servePages>>;
let conn: Connection;

const refOf = (text: string, line: RegExp): string => {
  const found = text.split('\n').find((l) => line.test(l));
  const ref = found && /\[ref=([^\]]+)\]/.exec(found)?.[1];
  if (!ref) throw new Error(`no ref for ${line} in:\n${text}`);
  return ref;
};

beforeAll(async () => {
  site = await servePages({
    '/': `<title>Form</title><h1>Sign up</h1>
      <label>Name <input id="name"></label>
      <label><input type="checkbox" id="agree"> Agree</label>
      <select id="color"><option value="r">Red</option><option value="g">Green</option></select>
      <button id="go" onclick="document.getElementById('out').textContent = 'name=' + document.getElementById('name').value + ' agree=' + document.getElementById('agree').checked + ' color=' + document.getElementById('color').value">Submit</button>
      <p id="out">nothing yet</p>
      <span id="hover" onmouseover="document.getElementById('tip').textContent='Tooltip shown'">Hover me</span><p id="tip"></p>
      <input id="keys" onkeydown="document.getElementById('key').textContent='key ' + event.key"><p id="key"></p>
      <div id="src" style="width:50px;height:50px;background:red" onmousedown="window.dragging=true">drag</div>
      <div id="dst" style="width:80px;height:80px;background:blue" onmouseup="if(window.dragging) document.getElementById('dropped').textContent='dropped'">drop</div><p id="dropped"></p>
      <button onclick="alert('Hello alert')">Alert</button>
      <button onclick="document.getElementById('answer').textContent = prompt('Your name?')">Prompt</button><p id="answer"></p>
      <button onclick="setTimeout(() => { const p = document.createElement('p'); p.textContent = 'Late text'; document.body.appendChild(p); }, 300)">Later</button>
      <a href="/article">Read the article</a>
      <script>for (let i = 0; i < 12; i++) console.log('message ' + i); console.error('an error');</script>`,
    '/article': `<title>Article</title><nav><a href="/">Home</a> | <a href="/x">Menu</a></nav><article><h1>The h\u200Bidden \u202Etitle</h1>
      <p>${'This is the article text, long enough for Readability to pick it up as the main content. '.repeat(8)}</p>
      <p>See <a href="/docs/page">the docs</a> and <a href="https://example.org/ref">a reference</a>.</p>
      <p>Tag chars: \u{E0041}\u{E0042} end. <a href="javascript:alert(1)">bad link</a></p></article><footer>Footer boilerplate</footer>`,
    '/doc-a': `<title>A</title><button onclick="this.textContent='Pressed'">Press</button>`,
    '/doc-b': `<title>B</title><a href="/doc-a">Back</a>`,
    '/opener': `<title>Opener</title><button onclick="fetch('/delete')">Delete everything</button><a href="/closes-itself" target="_blank">Open helper</a>`,
    '/closes-itself': `<title>Helper</title><button onclick="fetch('/save')">Save</button><script>setTimeout(() => window.close(), 3000)</script>`,
    '/frame-host': `<title>Host</title><iframe src="/frame-a"></iframe>`,
    '/frame-a': `<button onclick="fetch('/draft')">Save draft</button> <a href="/frame-b">Next step</a>`,
    '/frame-b': `<button onclick="fetch('/erase')">Delete account</button>`,
    '/draft': 'saved',
    '/erase': 'erased',
    '/popup-opener': `<title>Popups</title><button onclick="const w = window.open(''); w.document.write('<button onclick=&quot;document.title=1&quot;>Save draft</button><button onclick=&quot;location.href=\\'/popup-next\\'&quot;>Next</button>')">Open blank popup</button>`,
    '/popup-next': `<title>Next</title><button onclick="fetch('/erase-popup')">Delete account</button>`,
    '/erase-popup': 'erased',
    '/regions': `<title>Regions</title><nav><button>Nav button</button></nav><main><button>Main button</button></main>`,
    '/delete': 'deleted',
    '/save': 'saved',
    '/refresh': `<title>Moving</title><meta http-equiv="refresh" content="0;url=/article"><p>moving…</p>`,
  });
  conn = await startServer(['--allowed-origins', site.origin, '--enable-evaluate', '--max-entries', '5']);
});

afterAll(async () => {
  await conn?.close();
  await site?.close();
});

describe('pages that navigate on their own', () => {
  it('navigate to a page that meta-refreshes at once returns the snapshot of the page it lands on', async () => {
    const page = await callOk(conn, 'browser_navigate', { url: `${site.base}/refresh` });
    expect(page).toMatch(/Article/);
    expect(page).not.toMatch(/Execution context was destroyed/);
  });
});

describe('snapshot refs drive actions', () => {
  it('navigate returns a snapshot whose refs work in click, type, fill_form and select_option', async () => {
    const page = await callOk(conn, 'browser_navigate', { url: `${site.base}/` });
    expect(page).toMatch(/heading "Sign up" \[level=1\]/);
    const name = refOf(page, /textbox "Name"/);
    await callOk(conn, 'browser_type', { target: name, text: 'Ada', snapshot: 'none' });
    const filled = await callOk(conn, 'browser_fill_form', {
      fields: [
        { target: '#agree', name: 'Agree', type: 'checkbox', value: 'true' },
        { target: '#color', name: 'Color', type: 'combobox', value: 'Green' },
      ],
      snapshot: 'none',
    });
    expect(filled).toMatch(/Filled 2 field/);
    await callOk(conn, 'browser_select_option', { target: '#color', values: ['g'], snapshot: 'none' });
    const clicked = await callOk(conn, 'browser_click', { target: refOf(page, /button "Submit"/) });
    expect(clicked).toMatch(/Snapshot changes since the last snapshot:/);
    expect(clicked).toMatch(/Added[\s\S]*name=Ada agree=true color=g/);
    expect(clicked).toMatch(/Removed[\s\S]*nothing yet/);
  });

  it('hover, press_key, drag and wait_for act on the page', async () => {
    expect(await callOk(conn, 'browser_hover', { target: '#hover' })).toMatch(/Tooltip shown/);
    await callOk(conn, 'browser_click', { target: '#keys', snapshot: 'none' });
    expect(await callOk(conn, 'browser_press_key', { key: 'ArrowLeft' })).toMatch(/key ArrowLeft/);
    expect(await callOk(conn, 'browser_drag', { startTarget: '#src', endTarget: '#dst' })).toMatch(/dropped/);
    await callOk(conn, 'browser_click', { target: 'text=Later', snapshot: 'none' });
    expect(await callOk(conn, 'browser_wait_for', { text: 'Late text' })).toMatch(
      /"Late text" is on the page/,
    );
    const timedOut = await callChecked(conn, 'browser_wait_for', { text: 'never there', timeout: 0.5 });
    expect(timedOut.isError).toBe(true);
    expect(resultText(timedOut)).toMatch(/timed out after 500 ms/);
  });

  it('stale refs and ambiguous selectors are errors naming target', async () => {
    const stale = await callChecked(conn, 'browser_click', { target: 'e99999' });
    expect(stale.isError).toBe(true);
    expect(resultText(stale)).toMatch(/target: ref e99999 is not on the page/);
    const many = await callChecked(conn, 'browser_click', { target: 'button' });
    expect(resultText(many)).toMatch(/target: \d+ elements match/);
  });

  it('dialogs block the page until handled', async () => {
    const opened = await callOk(conn, 'browser_click', { target: 'text=Prompt' });
    expect(opened).toMatch(/prompt dialog opened: "Your name\?"/);
    const blocked = await callChecked(conn, 'browser_snapshot');
    expect(resultText(blocked)).toMatch(/dialog is open.*browser_handle_dialog/);
    expect(await callOk(conn, 'browser_handle_dialog', { accept: true, promptText: 'Grace' })).toMatch(
      /Grace/,
    );
    expect(resultText(await callChecked(conn, 'browser_handle_dialog', { accept: true }))).toMatch(
      /no dialog is open/,
    );
  });
});

describe('logs, tabs, reading', () => {
  it('ALL-05 console messages come in pages with a cursor, no duplicates', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 10; page++) {
      const text = await callOk(conn, 'browser_console_messages', cursor ? { cursor } : {});
      seen.push(...text.split('\n').filter((l) => l.startsWith('[')));
      cursor = /cursor="([^"]+)"/.exec(text)?.[1];
      if (!cursor) break;
    }
    expect(seen.filter((l) => /message \d+/.test(l))).toHaveLength(12);
    expect(new Set(seen).size).toBe(seen.length);
    expect(await callOk(conn, 'browser_console_messages', { level: 'error' })).toMatch(/\[error\] an error/);
    const bad = await callChecked(conn, 'browser_console_messages', { cursor: 'not-a-cursor' });
    expect(resultText(bad)).toMatch(/cursor:/);
  });

  it('reads the article as Markdown with absolute links, invisible characters made visible (ALL-06)', async () => {
    await callOk(conn, 'browser_click', { target: 'text=Read the article', snapshot: 'none' });
    const markdown = await callOk(conn, 'browser_read_markdown');
    expect(markdown).toContain(`[the docs](${site.base}/docs/page)`);
    expect(markdown).toContain('[a reference](https://example.org/ref)');
    expect(markdown).not.toContain('Footer boilerplate');
    expect(markdown).toContain('The hidden ⟦U+202E⟧title');
    expect(markdown).toContain('⟦hidden tag text: "AB"⟧');
    expect(markdown).not.toContain('javascript:');
    for (const out of [
      markdown,
      await callOk(conn, 'browser_get_text'),
      await callOk(conn, 'browser_snapshot'),
      await callOk(conn, 'browser_get_text', { target: 'p' }),
    ])
      assertNoInvisible(out, 'page text');
    const back = await callOk(conn, 'browser_navigate_back');
    expect(back).toMatch(/"Form"/);
  });

  it('tabs open, list, select and close; resize and evaluate work; close restarts cleanly', async () => {
    expect(await callOk(conn, 'browser_tabs', { action: 'new', url: `${site.base}/article` })).toMatch(
      /Opened tab 1/,
    );
    expect(await callOk(conn, 'browser_tabs', { action: 'list' })).toMatch(/\* 1: .*"Article"/);
    expect(await callOk(conn, 'browser_tabs', { action: 'select', index: 0 })).toMatch(/\* 0: .*"Form"/);
    const refused = await callChecked(conn, 'browser_tabs', {
      action: 'new',
      url: 'http://169.254.169.254/',
    });
    expect(resultText(refused)).toMatch(/rule: metadata/);
    expect(await callOk(conn, 'browser_tabs', { action: 'close', index: 1 })).toMatch(/1 tab\(s\)/);
    await callOk(conn, 'browser_resize', { width: 800, height: 600 });
    expect(await callOk(conn, 'browser_evaluate', { function: '() => [innerWidth, innerHeight]' })).toMatch(
      /800,\s*600/,
    );
    expect(
      await callOk(conn, 'browser_evaluate', { function: '(el) => el.textContent', target: 'h1' }),
    ).toContain('Sign up');
    const { contents } = await conn.client.readResource({ uri: 'console://logs' });
    expect(JSON.stringify(contents)).toContain('message 11');
    expect(await callOk(conn, 'browser_close')).toBe('Closed the browser.');
    expect(await callOk(conn, 'browser_close')).toBe('No browser was running.');
    expect(await callOk(conn, 'browser_snapshot')).toMatch(/Page: about:blank/);
    const blank = await callChecked(conn, 'browser_read_markdown');
    expect(blank.isError).toBe(true);
    expect(resultText(blank)).toMatch(
      /The tab is blank \(about:blank\): open a page with browser_navigate first/,
    );
  });
});

describe('refs across documents', () => {
  it("refs name their document: after a navigation an older page's ref is refused, never another element", async () => {
    const first = await callOk(conn, 'browser_navigate', { url: `${site.base}/doc-a` });
    const press = refOf(first, /button "Press"/);
    const second = await callOk(conn, 'browser_navigate', { url: `${site.base}/doc-b` });
    const back = refOf(second, /link "Back"/);
    const prefix = (ref: string) => /^(f\d+)?e\d+$/.exec(ref)?.[1] ?? '';
    expect(prefix(back)).not.toBe(prefix(press));
    const old = await callChecked(conn, 'browser_click', { target: press });
    expect(old.isError).toBe(true);
    expect(resultText(old)).toMatch(
      new RegExp(`target: ref ${press} is not in this tab's latest snapshot \\(it is from an older page`),
    );
    const third = await callOk(conn, 'browser_navigate', { url: `${site.base}/doc-a` });
    const again = refOf(third, /button "Press"/);
    expect(prefix(again)).not.toBe(prefix(back));
    expect(await callOk(conn, 'browser_click', { target: again })).toMatch(/Pressed/);
  });

  it('a ref from another tab is refused: a tab that closed itself leaves its refs unusable in the tab that becomes current', async () => {
    const opener = await callOk(conn, 'browser_navigate', { url: `${site.base}/opener` });
    await callOk(conn, 'browser_click', { target: refOf(opener, /link "Open helper"/), snapshot: 'none' });
    let helperIndex = -1;
    for (let i = 0; i < 40 && helperIndex < 0; i++) {
      if (i) await new Promise((resolve) => setTimeout(resolve, 100)); // the new tab loads
      const tabs = await callOk(conn, 'browser_tabs', { action: 'list' });
      helperIndex = Number(/^[ *] (\d+): .*"Helper"/m.exec(tabs)?.[1] ?? -1);
    }
    expect(helperIndex).toBeGreaterThan(0);
    await callOk(conn, 'browser_tabs', { action: 'select', index: helperIndex });
    const save = refOf(await callOk(conn, 'browser_snapshot'), /button "Save"/);
    // The helper tab closes itself meanwhile; the opener becomes current, and the next result says so.
    const waited = await callOk(conn, 'browser_wait_for', { time: 4 });
    const click = await callChecked(conn, 'browser_click', { target: save });
    expect(click.isError).toBe(true);
    expect(resultText(click)).toMatch(new RegExp(`target: ref ${save} comes from a snapshot of another tab`));
    expect(site.hits.get('/delete') ?? 0).toBe(0);
    expect(site.hits.get('/save') ?? 0).toBe(0);
    const after = await callOk(conn, 'browser_snapshot');
    expect(after).toMatch(/"Opener"/);
    expect(`${waited}\n${after}`).toMatch(
      new RegExp(`Tab ${helperIndex}, the current one, was closed by its page; the current tab is now \\d`),
    );
  });

  it("an iframe that navigates gives its new document new refs: the old page's refs are refused", async () => {
    const host = await callOk(conn, 'browser_navigate', { url: `${site.base}/frame-host` });
    const draft = refOf(host, /button "Save draft"/);
    await callOk(conn, 'browser_click', { target: refOf(host, /link "Next step"/), snapshot: 'none' });
    let next = '';
    for (let i = 0; i < 50 && !/Delete account/.test(next); i++) {
      if (i) await new Promise((resolve) => setTimeout(resolve, 100)); // the iframe loads its next page
      next = await callOk(conn, 'browser_snapshot');
    }
    const erase = refOf(next, /button "Delete account"/);
    expect(erase).not.toBe(draft);
    const old = await callChecked(conn, 'browser_click', { target: draft });
    expect(old.isError).toBe(true);
    expect(resultText(old)).toMatch(
      new RegExp(`target: ref ${draft} is not in this tab's latest snapshot \\(it is from an older page`),
    );
    expect(site.hits.get('/erase') ?? 0).toBe(0);
    expect(site.hits.get('/draft') ?? 0).toBe(0);
    await callOk(conn, 'browser_click', { target: erase, snapshot: 'none' });
    await callOk(conn, 'browser_wait_for', { time: 0.3 });
    expect(site.hits.get('/erase')).toBe(1);
  });

  it('two tabs never issue the same ref: a ref of one tab is refused in the other, even for the same page', async () => {
    const here = refOf(
      await callOk(conn, 'browser_navigate', { url: `${site.base}/doc-a` }),
      /button "Press"/,
    );
    const opened = await callOk(conn, 'browser_tabs', { action: 'new', url: `${site.base}/doc-a` });
    const there = refOf(opened, /button "Press"/);
    expect(there).not.toBe(here);
    const crossed = await callChecked(conn, 'browser_click', { target: here });
    expect(crossed.isError).toBe(true);
    expect(resultText(crossed)).toMatch(
      new RegExp(`target: ref ${here} comes from a snapshot of another tab`),
    );
    expect(await callOk(conn, 'browser_click', { target: there })).toMatch(/Pressed/);
  });

  it("a popup opened blank and written to gives its next page new refs: the blank page's refs are refused", async () => {
    const opener = await callOk(conn, 'browser_navigate', { url: `${site.base}/popup-opener` });
    await callOk(conn, 'browser_click', {
      target: refOf(opener, /button "Open blank popup"/),
      snapshot: 'none',
    });
    const tabs = await callOk(conn, 'browser_tabs', { action: 'list' });
    const popup = Math.max(...[...tabs.matchAll(/^[ *] (\d+): /gm)].map((m) => Number(m[1])));
    await callOk(conn, 'browser_tabs', { action: 'select', index: popup });
    const blank = await callOk(conn, 'browser_snapshot');
    const draft = refOf(blank, /button "Save draft"/);
    const next = await callOk(conn, 'browser_click', { target: refOf(blank, /button "Next"/) });
    expect(next).toMatch(/Delete account/);
    const old = await callChecked(conn, 'browser_click', { target: draft });
    expect(old.isError).toBe(true);
    expect(site.hits.get('/erase-popup') ?? 0).toBe(0);
  });

  it('after a snapshot with a target, refs outside it are refused with that reason', async () => {
    const page = await callOk(conn, 'browser_navigate', { url: `${site.base}/regions` });
    const nav = refOf(page, /button "Nav button"/);
    const main = refOf(page, /button "Main button"/);
    expect(await callOk(conn, 'browser_snapshot', { target: main })).toMatch(/Main button/);
    const outside = await callChecked(conn, 'browser_click', { target: nav });
    expect(outside.isError).toBe(true);
    expect(resultText(outside)).toMatch(
      new RegExp(`target: ref ${nav} is not in this tab's latest snapshot \\(.*that snapshot had a target`),
    );
    expect(await callOk(conn, 'browser_click', { target: main, snapshot: 'none' })).toMatch(/Clicked/);
  });
});
