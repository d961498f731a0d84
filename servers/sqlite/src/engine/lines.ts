/**
 * One JSON value per line over a byte stream (a pipe between the server and one engine slot).
 * JSON.stringify never writes a raw newline, so a newline always ends a message.
 */
import type { Duplex } from 'node:stream';

export class LineChannel<In, Out> {
  #buffer = '';

  /**
   * Reads messages from `stream` and hands each to `onMessage`; `onClose` runs once when the stream
   * ends, errors or closes. A line that is not JSON is a broken peer: the channel closes.
   */
  constructor(
    private readonly stream: Duplex,
    onMessage: (message: In) => void,
    onClose: () => void,
  ) {
    let closed = false;
    const close = () => {
      if (closed) return;
      closed = true;
      onClose();
    };
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      this.#buffer += chunk;
      for (let nl = this.#buffer.indexOf('\n'); nl !== -1; nl = this.#buffer.indexOf('\n')) {
        const line = this.#buffer.slice(0, nl);
        this.#buffer = this.#buffer.slice(nl + 1);
        let message: In;
        try {
          message = JSON.parse(line) as In;
        } catch {
          stream.destroy();
          close();
          return;
        }
        onMessage(message);
      }
    });
    stream.on('end', close);
    stream.on('close', close);
    stream.on('error', close);
  }

  /** Writes one message; false when the stream is already gone. */
  send(message: Out): boolean {
    if (this.stream.destroyed || !this.stream.writable) return false;
    this.stream.write(`${JSON.stringify(message)}\n`);
    return true;
  }
}
