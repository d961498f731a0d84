/**
 * Zip containers (OOXML, OpenDocument) read under a ceiling: every entry is inflated once, as a
 * stream, with the bytes actually produced counted (not the sizes the archive declares, which a zip
 * bomb lies about), and reading stops at the first byte past the ceiling. Only after that do the
 * format libraries, which inflate whole entries into memory, see the archive.
 */
import { Unzip, UnzipInflate, unzipSync } from 'fflate';
import { ExtractError, parserReason } from './errors.js';

/** Most entries an archive may hold. */
const MAX_ENTRIES = 20_000;
/** An entry inflating past this many bytes at more than {@link BOMB_RATIO}:1 is a bomb. */
const BOMB_FLOOR = 32 * 2 ** 20;
/** Office XML deflates about 5–20:1; zeros and repeated runs, which bombs are made of, about 1,000:1. */
const BOMB_RATIO = 200;
/** Bytes pushed to the inflater at a time. */
const CHUNK = 1 << 20;

/**
 * Inflates every entry of `bytes`, counting output; throws ExtractError('too-large') past
 * `maxInflated` bytes or {@link MAX_ENTRIES} entries, ExtractError('corrupt') when it is no zip or
 * an entry does not inflate. Returns the entry names.
 */
export function checkZip(bytes: Uint8Array, maxInflated: number): string[] {
  const names: string[] = [];
  let total = 0;
  let failure: ExtractError | undefined;
  const unzip = new Unzip((file) => {
    if (failure) return;
    names.push(file.name);
    if (names.length > MAX_ENTRIES) {
      failure = new ExtractError('too-large', `the archive holds more than ${MAX_ENTRIES} entries`);
      return;
    }
    let entryBytes = 0;
    file.ondata = (error, data) => {
      if (failure) return;
      if (error) {
        failure = new ExtractError('corrupt', `entry ${file.name} does not inflate (${error.message})`);
        file.terminate();
        return;
      }
      total += data.length;
      entryBytes += data.length;
      if (entryBytes > BOMB_FLOOR && file.size && entryBytes > BOMB_RATIO * file.size) {
        failure = new ExtractError(
          'too-large',
          `entry ${file.name} inflates more than ${BOMB_RATIO}:1 past ${BOMB_FLOOR / 2 ** 20} MiB (a zip bomb)`,
        );
        file.terminate();
      } else if (total > maxInflated) {
        failure = new ExtractError(
          'too-large',
          `its entries inflate to more than ${Math.round(maxInflated / 2 ** 20)} MiB (a zip bomb, or too large to read)`,
        );
        file.terminate();
      }
    };
    file.start();
  });
  unzip.register(UnzipInflate);
  try {
    for (let at = 0; at < bytes.length && !failure; at += CHUNK) {
      unzip.push(bytes.subarray(at, Math.min(bytes.length, at + CHUNK)), at + CHUNK >= bytes.length);
    }
  } catch (error) {
    failure ??= new ExtractError('corrupt', `not a readable zip archive (${parserReason(error)})`);
  }
  if (failure) throw failure;
  if (names.length === 0) throw new ExtractError('corrupt', 'not a zip archive, or an empty one');
  return names;
}

/** The entries of a checked archive whose names pass `wanted`, as UTF-8 text. */
export function readEntries(bytes: Uint8Array, wanted: (name: string) => boolean): Map<string, string> {
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(bytes, { filter: (f) => wanted(f.name) });
  } catch (error) {
    throw new ExtractError('corrupt', `not a readable zip archive (${parserReason(error)})`);
  }
  const decoder = new TextDecoder('utf-8');
  return new Map(Object.entries(files).map(([name, data]) => [name, decoder.decode(data)]));
}
