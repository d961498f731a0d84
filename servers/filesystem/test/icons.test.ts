/** The server's icon reaches the client in serverInfo in both eras (initialize; server/discover). */
import { tempDir } from '@refmcp/test-harness';
import { describe, expect, it } from 'vitest';
import { startServer } from './support.js';

describe.each(['legacy', 'modern'] as const)('serverInfo.icons (%s era)', (era) => {
  it('one SVG data URI', async () => {
    const { dir, cleanup } = await tempDir();
    const conn = await startServer([dir], era);
    try {
      expect(conn.era).toBe(era);
      const icons = (conn.serverInfo as { icons?: Array<{ src: string; mimeType?: string }> }).icons;
      expect(icons).toHaveLength(1);
      expect(icons?.[0]?.mimeType).toBe('image/svg+xml');
      expect(decodeURIComponent(icons?.[0]?.src ?? '')).toMatch(/^data:image\/svg\+xml,<svg xmlns=/);
    } finally {
      await conn.close();
      await cleanup();
    }
  });
});
