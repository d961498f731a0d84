import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { serverIconSvg, serverIcons } from '../src/server/icons.js';

const servers = readdirSync(new URL('../../servers/', import.meta.url));

describe('server icons (spec 2025-11-25 "Icons")', () => {
  it.each(servers)('%s has an SVG data-URI icon that decodes back to its SVG', (name) => {
    const [icon, ...more] = serverIcons(name);
    expect(more).toEqual([]);
    expect(icon).toMatchObject({ mimeType: 'image/svg+xml', sizes: ['any'] });
    expect(decodeURIComponent(icon?.src.replace(/^data:image\/svg\+xml,/, '') ?? '')).toBe(
      serverIconSvg(name),
    );
  });

  it.each(servers)('%s: plain shapes only (no script, style, text, link or external reference)', (name) => {
    const svg = serverIconSvg(name) ?? '';
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" [^>]*>.*<\/svg>$/);
    expect(svg).not.toMatch(/<script|<style|<text|<a\b|href|url\(|<image|<foreignObject|on\w+=/i);
    expect(svg.match(/<(\w+)/g)).toEqual(['<svg', '<rect', '<path']);
  });

  it('a name without an icon gets none', () => {
    expect(serverIcons('nope')).toEqual([]);
  });
});
