/**
 * Document fixtures made in test code, so no binary is committed: PDFs (multi-page, a scanned page,
 * an encrypted one) with pdf-lib, .docx with docx, .xlsx/.ods/.csv with SheetJS, .pptx/.odt/.odp
 * assembled from their XML parts with fflate, a zip bomb, and truncated/corrupt variants.
 */
import { crc32, deflateRawSync } from 'node:zlib';
import { write as writeXlsx, utils as XLSXUtils } from '@e965/xlsx';
import {
  Document,
  ExternalHyperlink,
  HeadingLevel,
  ImageRun,
  Packer,
  Paragraph,
  Table,
  TableCell,
  TableRow,
  TextRun,
} from 'docx';
import { strToU8, zipSync } from 'fflate';
import { PDFDocument, PDFName, PDFString, StandardFonts } from 'pdf-lib';

/** A 1×1 red PNG. */
export const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC',
  'base64',
);

/** A PNG of `width`×`height` declared in its header (IHDR); the pixel data is minimal and need not decode. */
export function pngHeader(width: number, height: number): Buffer {
  const png = Buffer.from(TINY_PNG);
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  return png;
}

/**
 * A PDF of `pages` pages, each with the text "Page N: <line>" on `linesPerPage` lines; page
 * numbers in `scanned` hold only an image (no text layer).
 */
export async function makePdf(
  pages: number,
  opts: { scanned?: number[]; linesPerPage?: number } = {},
): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const image = await doc.embedPng(TINY_PNG);
  for (let p = 1; p <= pages; p++) {
    const page = doc.addPage([612, 792]);
    if (opts.scanned?.includes(p)) {
      page.drawImage(image, { x: 50, y: 50, width: 500, height: 700 });
      continue;
    }
    for (let l = 0; l < (opts.linesPerPage ?? 3); l++) {
      page.drawText(`Page ${p} line ${l + 1}: the quick brown fox`, {
        x: 40,
        y: 740 - l * 14,
        size: 10,
        font,
      });
    }
  }
  return Buffer.from(await doc.save({ useObjectStreams: false }));
}

/**
 * A PDF whose trailer names a standard security handler (RC4, revision 3) with a user password:
 * readers must ask for the password before any page can be read.
 */
export async function makeEncryptedPdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.addPage();
  const encrypt = doc.context.obj({
    Filter: PDFName.of('Standard'),
    V: 2,
    R: 3,
    Length: 128,
    P: -3904,
    O: PDFString.of('0123456789abcdef0123456789abcdef'),
    U: PDFString.of('fedcba9876543210fedcba9876543210'),
  });
  doc.context.trailerInfo.Encrypt = doc.context.register(encrypt);
  doc.context.trailerInfo.ID = doc.context.obj([
    PDFString.of('0123456789abcdef'),
    PDFString.of('0123456789abcdef'),
  ]);
  return Buffer.from(await doc.save({ useObjectStreams: false }));
}

/** A .docx with a heading, a bulleted list, a link, a 2×2 table and an image with alt text. */
export async function makeDocx(): Promise<Buffer> {
  const doc = new Document({
    sections: [
      {
        children: [
          new Paragraph({ text: 'Quarterly Report', heading: HeadingLevel.HEADING_1 }),
          new Paragraph({ text: 'Revenue grew in every region.' }),
          new Paragraph({ text: 'First point', bullet: { level: 0 } }),
          new Paragraph({ text: 'Second point', bullet: { level: 0 } }),
          new Paragraph({
            children: [
              new TextRun('See '),
              new ExternalHyperlink({
                link: 'https://example.com/report',
                children: [new TextRun('the full report')],
              }),
            ],
          }),
          new Table({
            rows: [
              new TableRow({
                children: [
                  new TableCell({ children: [new Paragraph('Region')] }),
                  new TableCell({ children: [new Paragraph('Sales')] }),
                ],
              }),
              new TableRow({
                children: [
                  new TableCell({ children: [new Paragraph('North')] }),
                  new TableCell({ children: [new Paragraph('1200')] }),
                ],
              }),
            ],
          }),
          new Paragraph({
            children: [
              new ImageRun({
                type: 'png',
                data: TINY_PNG,
                transformation: { width: 10, height: 10 },
                altText: { name: 'chart', description: 'sales chart', title: 'chart' },
              }),
            ],
          }),
        ],
      },
    ],
  });
  return Buffer.from(await Packer.toBuffer(doc));
}

/** A workbook of sheets "Summary" (with formulas and cached results) and "Data" (`dataRows` rows), as xlsx or ods. */
export function makeWorkbook(dataRows = 5, bookType: 'xlsx' | 'ods' = 'xlsx'): Buffer {
  const wb = XLSXUtils.book_new();
  const summary = XLSXUtils.aoa_to_sheet([
    ['Item', 'Amount'],
    ['Apples', 3],
    ['Pears', 4],
    ['Total', 7],
  ]);
  summary.B4 = { t: 'n', v: 7, f: 'SUM(B2:B3)' };
  XLSXUtils.book_append_sheet(wb, summary, 'Summary');
  const data = XLSXUtils.aoa_to_sheet([
    ['id', 'name'],
    ...Array.from({ length: dataRows }, (_, i) => [i + 1, `row ${i + 1}`]),
  ]);
  XLSXUtils.book_append_sheet(wb, data, 'Data');
  return Buffer.from(writeXlsx(wb, { type: 'buffer', bookType }) as Uint8Array);
}

const NS_P =
  'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const shape = (text: string, ph = '') =>
  `<p:sp><p:nvSpPr><p:cNvPr id="2" name="t"/><p:cNvSpPr/><p:nvPr>${ph}</p:nvPr></p:nvSpPr><p:txBody><a:bodyPr/><a:p><a:r><a:t>${text}</a:t></a:r></a:p></p:txBody></p:sp>`;

/** A .pptx whose slides hold `slides[i].text` and, where given, speaker notes. */
export function makePptx(slides: Array<{ text: string; notes?: string }>): Buffer {
  const files: Record<string, Uint8Array> = {
    '[Content_Types].xml': strToU8(
      '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Override PartName="/ppt/presentation.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml"/></Types>',
    ),
    'ppt/presentation.xml': strToU8(
      `<?xml version="1.0"?><p:presentation ${NS_P}><p:sldIdLst>${slides.map((_, i) => `<p:sldId id="${256 + i}" r:id="rId${i + 1}"/>`).join('')}</p:sldIdLst></p:presentation>`,
    ),
    'ppt/_rels/presentation.xml.rels': strToU8(
      `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${slides.map((_, i) => `<Relationship Id="rId${i + 1}" Type="${REL}/slide" Target="slides/slide${i + 1}.xml"/>`).join('')}</Relationships>`,
    ),
  };
  slides.forEach((slide, i) => {
    const n = i + 1;
    files[`ppt/slides/slide${n}.xml`] = strToU8(
      `<?xml version="1.0"?><p:sld ${NS_P}><p:cSld><p:spTree>${shape(slide.text)}</p:spTree></p:cSld></p:sld>`,
    );
    if (slide.notes) {
      files[`ppt/slides/_rels/slide${n}.xml.rels`] = strToU8(
        `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/notesSlide" Target="../notesSlides/notesSlide${n}.xml"/></Relationships>`,
      );
      files[`ppt/notesSlides/notesSlide${n}.xml`] = strToU8(
        `<?xml version="1.0"?><p:notes ${NS_P}><p:cSld><p:spTree>${shape(String(n), '<p:ph type="sldNum"/>')}${shape(slide.notes, '<p:ph type="body" idx="1"/>')}</p:spTree></p:cSld></p:notes>`,
      );
    }
  });
  return Buffer.from(zipSync(files));
}

const ODF_NS =
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0" xmlns:xlink="http://www.w3.org/1999/xlink"';

function odf(mimetype: string, body: string): Buffer {
  return Buffer.from(
    zipSync({
      mimetype: [strToU8(mimetype), { level: 0 }],
      'content.xml': strToU8(
        `<?xml version="1.0"?><office:document-content ${ODF_NS}><office:body>${body}</office:body></office:document-content>`,
      ),
    }),
  );
}

/** An .odt with a heading, a list, a link and a table. */
export function makeOdt(): Buffer {
  return odf(
    'application/vnd.oasis.opendocument.text',
    '<office:text><text:h text:outline-level="2">Minutes</text:h><text:p>Present: <text:a xlink:href="https://example.org/team">the team</text:a></text:p>' +
      '<text:list><text:list-item><text:p>Budget approved</text:p></text:list-item><text:list-item><text:p>Next meeting</text:p></text:list-item></text:list>' +
      '<table:table><table:table-row><table:table-cell><text:p>Owner</text:p></table:table-cell><table:table-cell><text:p>Task</text:p></table:table-cell></table:table-row>' +
      '<table:table-row><table:table-cell><text:p>Ana</text:p></table:table-cell><table:table-cell><text:p>Draft</text:p></table:table-cell></table:table-row></table:table></office:text>',
  );
}

/** An .odp of slides with notes. */
export function makeOdp(slides: Array<{ text: string; notes?: string }>): Buffer {
  return odf(
    'application/vnd.oasis.opendocument.presentation',
    `<office:presentation>${slides
      .map(
        (s, i) =>
          `<draw:page draw:name="page${i + 1}"><draw:frame><draw:text-box><text:p>${s.text}</text:p></draw:text-box></draw:frame>${s.notes ? `<presentation:notes><draw:frame><draw:text-box><text:p>${s.notes}</text:p></draw:text-box></draw:frame></presentation:notes>` : ''}</draw:page>`,
      )
      .join('')}</office:presentation>`,
  );
}

/**
 * A zip bomb shaped as a .docx: `entries` entries named like Word parts, each `entryMiB` MiB of
 * zeros deflated (about 1,000:1), so the file is small and inflates past any sane ceiling.
 */
export function makeZipBomb(entries = 5, entryMiB = 256): Buffer {
  const plain = Buffer.alloc(entryMiB * 2 ** 20);
  const packed = deflateRawSync(plain, { level: 9 });
  const crc = crc32(plain);
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  const names = ['word/document.xml', ...Array.from({ length: entries - 1 }, (_, i) => `word/part${i}.xml`)];
  for (const n of names) {
    const name = Buffer.from(n);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(plain.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(plain.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, packed);
    centrals.push(central, name);
    offset += 30 + name.length + packed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(names.length, 8);
  end.writeUInt16LE(names.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** The first `fraction` of `bytes` (a truncated download). */
export function truncated(bytes: Buffer, fraction = 0.5): Buffer {
  return bytes.subarray(0, Math.floor(bytes.length * fraction));
}

/** `bytes` with a run of its middle overwritten by garbage (a corrupt file keeping its signature). */
export function corrupted(bytes: Buffer): Buffer {
  const out = Buffer.from(bytes);
  for (let i = Math.floor(out.length * 0.2); i < out.length - 30; i += 7) out[i] = (i * 31) & 0xff;
  return out;
}
