// A free loopback TCP port for services that must be told their port before they start.
import { createServer } from 'node:net';

/**
 * A TCP port on 127.0.0.1 that was free when asked: listens on port 0, reads the port the kernel
 * chose, closes, and resolves with it. Small race: another process may take the port between this
 * close and the caller's own listen. Errors: rejects when the listen fails.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('freePort: the listening socket has no TCP address')),
      );
    });
  });
}
