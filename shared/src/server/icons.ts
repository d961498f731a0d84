/**
 * Each server's icon (MCP spec 2025-11-25, "Icons": `serverInfo.icons`, shown by hosts next to the
 * server's name). One SVG per server as a `data:` URI, so no host fetches anything: a rounded square
 * in the server's colour with a white glyph drawn from plain shapes (no text, scripts, styles or
 * external references, which hosts are told to refuse in SVG icons).
 *
 * Tools carry no `icons` (2025-11-25 allows them on Tool): the server's icon repeated on each tool
 * is 505–601 bytes a tool, which would add 32–69% to every server's tools/list (GitHub: 47 tools,
 * +28 KB on 80 KB; the browser: +12 KB on 17 KB), measured on the committed toolsnaps (issue 32).
 * A smaller per-toolset glyph still costs ~300 bytes a tool; hosts show the server's icon beside
 * its tools anyway.
 */
import type { Icon } from '@modelcontextprotocol/server';

/** Glyph paths on a 24×24 canvas, white stroke. */
const GLYPHS: Record<string, { colour: string; glyph: string }> = {
  filesystem: { colour: '#2f6fb3', glyph: 'M4 7h6l2 2h8v9H4z' },
  sqlite: {
    colour: '#0f80cc',
    glyph: 'M5 6c0-2 14-2 14 0v12c0 2-14 2-14 0zM5 6c0 2 14 2 14 0M5 12c0 2 14 2 14 0',
  },
  postgres: {
    colour: '#336791',
    glyph: 'M5 6c0-2 14-2 14 0v12c0 2-14 2-14 0zM5 6c0 2 14 2 14 0M5 12c0 2 14 2 14 0',
  },
  github: {
    colour: '#24292f',
    glyph: 'M7 5v14M7 9c0 4 10 2 10 6M7 5a1.5 1.5 0 1 0 .01 0M17 15a1.5 1.5 0 1 0 .01 0',
  },
  gitlab: {
    colour: '#e24329',
    glyph: 'M7 5v14M7 9c0 4 10 2 10 6M7 5a1.5 1.5 0 1 0 .01 0M17 15a1.5 1.5 0 1 0 .01 0',
  },
  slack: { colour: '#4a154b', glyph: 'M4 6h16v9H10l-4 4v-4H4z' },
  drive: { colour: '#1a73e8', glyph: 'M9 4h6l6 10-3 5H6l-3-5z' },
  search: { colour: '#fb542b', glyph: 'M10.5 4.5a6 6 0 1 0 .01 0M15 15l5 5' },
  browser: { colour: '#5f6368', glyph: 'M3 5h18v14H3zM3 9h18' },
};

/** The SVG of server `name`'s icon, or undefined for a name without one. */
export function serverIconSvg(name: string): string | undefined {
  const icon = GLYPHS[name];
  if (!icon) return undefined;
  return (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" width="24" height="24">' +
    `<rect width="24" height="24" rx="5" fill="${icon.colour}"/>` +
    `<path d="${icon.glyph}" fill="none" stroke="#fff" stroke-width="1.6" stroke-linecap="round" stroke-linejoin="round"/>` +
    '</svg>'
  );
}

/** `serverInfo.icons` of server `name`: its SVG as a data URI, any size; empty without one. */
export function serverIcons(name: string): Icon[] {
  const svg = serverIconSvg(name);
  if (!svg) return [];
  return [
    { src: `data:image/svg+xml,${encodeURIComponent(svg)}`, mimeType: 'image/svg+xml', sizes: ['any'] },
  ];
}
