/**
 * The pages both browser servers load, served by the bench on 127.0.0.1: a medium page (the
 * navigate + snapshot timing) and a large one (snapshot size: a portal-like page with nested
 * layout containers, 600 links, a form and a data table).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

function mediumPage(): string {
  const items = Array.from(
    { length: 40 },
    (_, i) => `<li><a href="/item/${i}">Item ${i}</a> <span>note ${i}</span></li>`,
  );
  return `<!doctype html><title>Medium</title><header><nav><a href="/">Home</a> <a href="/about">About</a></nav></header>
<main><h1>Medium page</h1><p>${'Some paragraph text. '.repeat(20)}</p><ul>${items.join('')}</ul>
<form><label>Query <input name="q"></label><button>Search</button></form></main>`;
}

function largePage(): string {
  const card = (
    i: number,
  ) => `<div class="col"><div class="card"><div class="card-body"><div class="card-header">
    <h3><a href="/story/${i}">Story number ${i} with a longer headline</a></h3></div>
    <div class="meta"><span><a href="/user/${i % 37}">user${i % 37}</a></span> <span>${i} points</span>
    <span><a href="/story/${i}#comments">${i % 50} comments</a></span></div>
    <div class="actions"><div class="btn-wrap"><button>Upvote</button></div><div class="btn-wrap"><button>Share</button></div></div></div></div></div>`;
  const rows = Array.from(
    { length: 100 },
    (_, i) =>
      `<tr><td>${i}</td><td>Name ${i}</td><td>${(i * 17) % 101}</td><td><a href="/row/${i}">open</a></td></tr>`,
  );
  return `<!doctype html><title>Large</title><div id="app"><div class="layout"><div class="sidebar"><div class="nav-wrap"><nav>
    ${Array.from({ length: 50 }, (_, i) => `<div class="nav-item"><a href="/section/${i}">Section ${i}</a></div>`).join('')}</nav></div></div>
    <div class="content"><div class="container"><div class="row"><h1>Front page</h1></div>
    <div class="row"><form><div class="field"><label>Search <input name="q"></label></div>
    <div class="field"><select name="sort"><option>Top</option><option>New</option></select></div>
    <div class="field"><label><input type="checkbox" name="hide"> Hide read</label></div><button>Go</button></form></div>
    <div class="row">${Array.from({ length: 150 }, (_, i) => card(i)).join('')}</div>
    <div class="row"><table><thead><tr><th>#</th><th>Name</th><th>Score</th><th></th></tr></thead><tbody>${rows.join('')}</tbody></table></div>
    </div></div></div></div>`;
}

export interface PageServer {
  origin: string;
  close(): Promise<void>;
}

/** Serves /medium and /large on 127.0.0.1 (random port). */
export async function servePages(): Promise<PageServer> {
  const pages: Record<string, string> = { '/medium': mediumPage(), '/large': largePage() };
  const server = http.createServer((req, res) => {
    const page = pages[(req.url ?? '/').split('?')[0] ?? '/'];
    res.writeHead(page ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' }).end(page ?? 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
