/**
 * Full-page screenshots no host rejects. Hosts refuse images over 8000 px on a side (and a refused
 * image breaks every later turn of the conversation), and a tall page easily makes 1280×30000. A
 * page that fits is shot by Playwright as before; a bigger one is shot by Chromium itself
 * (CDP Page.captureScreenshot with a scaled clip of the whole page, beyond the viewport), scaled
 * down so that its longer side is at most {@link MAX_IMAGE_SIDE} px — one image, the whole page,
 * and the result says so.
 */
import type { Page } from 'playwright-core';

/** Longest image side hosts accept, in pixels (Claude's limit; others are larger). */
export const MAX_IMAGE_SIDE = 8000;

/** A full-page image, and how it was scaled (undefined when it was not). */
export interface BoundedShot {
  data: Buffer;
  /** Set when the page was scaled down: its size and the image's, in pixels. */
  scaled?: { from: { width: number; height: number }; to: { width: number; height: number } };
}

interface LayoutMetrics {
  cssContentSize: { width: number; height: number };
  cssVisualViewport: { clientWidth: number };
  visualViewport: { clientWidth: number };
}

/**
 * A full-page screenshot of `page` with no side over {@link MAX_IMAGE_SIDE} px. `shoot` is the
 * ordinary Playwright full-page screenshot (used when the page fits). Errors: Playwright's and
 * CDP's, for the caller to describe.
 */
export async function fullPageScreenshot(
  page: Page,
  format: 'png' | 'jpeg',
  shoot: () => Promise<Buffer>,
): Promise<BoundedShot> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const metrics = (await cdp.send('Page.getLayoutMetrics')) as unknown as LayoutMetrics;
    const { width, height } = metrics.cssContentSize;
    // Device pixels per CSS pixel: the image is this much larger than the page's CSS size.
    const dpr = metrics.visualViewport.clientWidth / Math.max(1, metrics.cssVisualViewport.clientWidth) || 1;
    const from = { width: Math.ceil(width * dpr), height: Math.ceil(height * dpr) };
    if (Math.max(from.width, from.height) <= MAX_IMAGE_SIDE) return { data: await shoot() };
    const scale = MAX_IMAGE_SIDE / Math.max(from.width, from.height);
    const shot = (await cdp.send('Page.captureScreenshot', {
      format,
      ...(format === 'jpeg' ? { quality: 80 } : {}),
      captureBeyondViewport: true,
      clip: { x: 0, y: 0, width, height, scale },
    })) as { data: string };
    const to = {
      width: Math.min(MAX_IMAGE_SIDE, Math.floor(from.width * scale)),
      height: Math.min(MAX_IMAGE_SIDE, Math.floor(from.height * scale)),
    };
    return { data: Buffer.from(shot.data, 'base64'), scaled: { from, to } };
  } finally {
    await cdp.detach().catch(() => {});
  }
}
