/**
 * Images → an image the model can take: scaled so that no side exceeds `maxImageSide` and the
 * encoded bytes fit `maxImageBytes`, with the original size said. Pure JavaScript (jimp), so every
 * server's bundle carries it and nothing native installs. The pixel count is read from the header
 * before anything is decoded, so a small file declaring a huge canvas (a decompression bomb) is
 * refused unread. SVG is never rendered (it can hold scripts and external references): its text
 * (title, desc, text elements) is returned instead.
 */
import { PartCollector } from './collect.js';
import { imageType } from './detect.js';
import { ExtractError, parserReason } from './errors.js';
import type { ExtractedDocument, ExtractRequest } from './types.js';
import { findAll, parseXml, textOf } from './xml.js';

/** Width and height from the header of a PNG, GIF, BMP or JPEG; undefined for others. */
export function imageSize(bytes: Uint8Array, type: string): { width: number; height: number } | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  try {
    if (type === 'image/png') return { width: view.getUint32(16), height: view.getUint32(20) };
    if (type === 'image/gif') return { width: view.getUint16(6, true), height: view.getUint16(8, true) };
    if (type === 'image/bmp')
      return { width: Math.abs(view.getInt32(18, true)), height: Math.abs(view.getInt32(22, true)) };
    if (type === 'image/jpeg') {
      // Walk the segments to the first start-of-frame (SOF0–SOF15 except DHT/JPG/DAC).
      let at = 2;
      while (at + 9 < bytes.length) {
        if (bytes[at] !== 0xff) return undefined;
        const marker = bytes[at + 1] as number;
        if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) {
          return { height: view.getUint16(at + 5), width: view.getUint16(at + 7) };
        }
        at += 2 + view.getUint16(at + 2);
      }
    }
  } catch {
    return undefined;
  }
  return undefined;
}

export async function extractImage(request: ExtractRequest): Promise<ExtractedDocument> {
  const type = imageType(request.bytes);
  if (!type) throw new ExtractError('unsupported', 'it is not an image read here');
  const size = imageSize(request.bytes, type);
  if (!size)
    throw new ExtractError('unsupported', `${type} images are not decoded here (PNG, JPEG, GIF and BMP are)`);
  const pixels = size.width * size.height;
  if (!pixels) throw new ExtractError('corrupt', 'its header declares an empty image');
  if (pixels > request.maxImagePixels) {
    throw new ExtractError(
      'too-large',
      `it declares ${size.width}×${size.height} pixels, over the ${Math.round(request.maxImagePixels / 1e6)} megapixel limit for decoding`,
    );
  }
  const { limits } = request;
  const fits = (w: number, h: number, bytes: number) =>
    Math.max(w, h) <= limits.maxImageSide && bytes <= limits.maxImageBytes;
  const base = { kind: 'image' as const, totalParts: 1, parts: [] };
  if (fits(size.width, size.height, request.bytes.length) && type !== 'image/bmp') {
    return {
      ...base,
      image: {
        data: request.bytes,
        mimeType: type,
        width: size.width,
        height: size.height,
        originalWidth: size.width,
        originalHeight: size.height,
        originalMimeType: type,
      },
    };
  }
  const { Jimp, JimpMime } = await import('jimp');
  let image: Awaited<ReturnType<typeof Jimp.read>>;
  try {
    image = await Jimp.read(
      Buffer.from(request.bytes.buffer, request.bytes.byteOffset, request.bytes.byteLength),
    );
  } catch (error) {
    throw new ExtractError('corrupt', `the image does not decode (${parserReason(error)})`);
  }
  let scale = Math.min(1, limits.maxImageSide / Math.max(size.width, size.height));
  const jpeg = type === 'image/jpeg';
  for (let attempt = 0; attempt < 6; attempt++) {
    const width = Math.max(1, Math.floor(size.width * scale));
    const height = Math.max(1, Math.floor(size.height * scale));
    const copy = image.clone();
    if (scale < 1) copy.resize({ w: width, h: height });
    const data = jpeg
      ? await copy.getBuffer(JimpMime.jpeg, { quality: 80 })
      : await copy.getBuffer(JimpMime.png);
    if (fits(width, height, data.length)) {
      return {
        ...base,
        image: {
          data: new Uint8Array(data),
          mimeType: jpeg ? 'image/jpeg' : 'image/png',
          width,
          height,
          originalWidth: size.width,
          originalHeight: size.height,
          originalMimeType: type,
        },
      };
    }
    scale *= Math.min(0.9, Math.sqrt(limits.maxImageBytes / data.length) * 0.95);
  }
  throw new ExtractError('too-large', 'it cannot be scaled to fit the byte budget');
}

/** SVG: its text only, never rendered. */
export function extractSvg(request: ExtractRequest): ExtractedDocument {
  const xml = new TextDecoder('utf-8').decode(request.bytes);
  const nodes = parseXml(xml, 'the SVG');
  const text = ['title', 'desc', 'text']
    .flatMap((tag) => findAll(nodes, tag).map((n) => textOf([n]).trim()))
    .filter(Boolean)
    .join('\n');
  const collect = new PartCollector(request.limits, request.start, 1, 'part');
  collect.addText(
    {
      number: 1,
      ...(text
        ? {}
        : { empty: 'an SVG image with no text; SVG is not rendered here (it can carry scripts)' }),
    },
    text,
  );
  return collect.result('svg', 1);
}
