// Reading back the PDFs Chromium prints (Skia/PDF: no object streams, each page's text drawn with Type0 fonts
// whose ToUnicode maps give the characters), enough for a test to count pages and search the printed text.
import { inflateSync } from 'node:zlib';

/** The number of pages: `/Type /Page` objects, not the `/Type /Pages` tree. */
export function pdfPages(pdf: Buffer): number {
  return pdf.toString('latin1').match(/\/Type\s*\/Page(?![a-zA-Z])/g)?.length ?? 0;
}

interface PdfObject {
  dict: string;
  stream: Buffer | null;
}

function objects(pdf: Buffer): Map<string, PdfObject> {
  const text = pdf.toString('latin1');
  const found = new Map<string, PdfObject>();
  const start = /(\d+) 0 obj\s*/g;
  for (let m = start.exec(text); m; m = start.exec(text)) {
    const end = text.indexOf('endobj', start.lastIndex);
    const body = text.slice(start.lastIndex, end);
    const streamAt = body.indexOf('stream');
    let stream: Buffer | null = null;
    let dict = body;
    if (streamAt >= 0 && /\/Length\s+\d+/.test(body.slice(0, streamAt))) {
      dict = body.slice(0, streamAt);
      const length = Number(/\/Length\s+(\d+)/.exec(dict)![1]);
      const from = start.lastIndex + streamAt + 'stream'.length + (body[streamAt + 6] === '\r' ? 2 : 1);
      const raw = pdf.subarray(from, from + length);
      stream = /\/FlateDecode/.test(dict) ? inflateSync(raw) : raw;
    }
    found.set(m[1]!, { dict, stream });
    start.lastIndex = end;
  }
  return found;
}

const ref = (dict: string, key: string) => new RegExp(`/${key}\\s+(\\d+) 0 R`).exec(dict)?.[1];
const hexChars = (hex: string) =>
  String.fromCodePoint(...(hex.match(/.{4}/g) ?? []).map((h) => parseInt(h, 16)));

/** A font's glyph → text map, from its ToUnicode CMap (bfchar and bfrange entries). */
function toUnicode(cmap: string): Map<number, string> {
  const map = new Map<number, string>();
  for (const block of cmap.matchAll(/beginbfchar([\s\S]*?)endbfchar/g))
    for (const [, glyph, chars] of block[1]!.matchAll(/<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>/g))
      map.set(parseInt(glyph!, 16), hexChars(chars!));
  for (const block of cmap.matchAll(/beginbfrange([\s\S]*?)endbfrange/g))
    for (const [, from, to, first] of block[1]!.matchAll(
      /<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>/g,
    )) {
      const base = parseInt(first!, 16);
      for (let g = parseInt(from!, 16); g <= parseInt(to!, 16); g++)
        map.set(g, String.fromCodePoint(base + g - parseInt(from!, 16)));
    }
  return map;
}

/** The text each page draws, pages joined by a line break (text runs of a page joined without space). */
export function pdfText(pdf: Buffer): string {
  const all = objects(pdf);
  const pages: string[] = [];
  for (const { dict } of all.values()) {
    if (!/\/Type\s*\/Page(?![a-zA-Z])/.test(dict)) continue;
    const fonts = new Map<string, Map<number, string>>();
    const fontDict = /\/Font\s*<<([^>]*)>>/.exec(dict)?.[1] ?? '';
    for (const [, name, id] of fontDict.matchAll(/\/(\w+)\s+(\d+) 0 R/g)) {
      const unicode = ref(all.get(id!)?.dict ?? '', 'ToUnicode');
      const cmap = unicode ? all.get(unicode)?.stream : null;
      fonts.set(name!, cmap ? toUnicode(cmap.toString('latin1')) : new Map());
    }
    const contents = ref(dict, 'Contents');
    const content = contents ? (all.get(contents)?.stream?.toString('latin1') ?? '') : '';
    let font = new Map<number, string>();
    let text = '';
    for (const [, fontName, shown] of content.matchAll(
      /\/(\w+)\s+[\d.]+\s+Tf|(\[[^\]]*\]\s*TJ|<[0-9A-Fa-f]*>\s*Tj)/g,
    )) {
      if (fontName) font = fonts.get(fontName) ?? new Map();
      else
        for (const [, hex] of shown!.matchAll(/<([0-9A-Fa-f]*)>/g))
          for (const glyph of hex!.match(/.{4}/g) ?? []) text += font.get(parseInt(glyph, 16)) ?? '';
    }
    pages.push(text);
  }
  return pages.join('\n');
}
