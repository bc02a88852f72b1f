// Draws the demo users' profile pictures (demo/pictures/<name>.png): a 96×96 square in
// the user's colour with their initial in white. PNG encoding by hand, zlib for deflate.
// Run: npx tsx scripts/make-demo-pictures.ts

import { mkdirSync, writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const SIZE = 96;
const SCALE = 10; // each font cell becomes a 10×10 block: a 50×70 letter
const WHITE: Rgb = [255, 255, 255];

type Rgb = [number, number, number];

/** 5×7 bitmap glyphs, one string per row, `#` = ink. */
const GLYPHS: Record<string, string[]> = {
  A: ['.###.', '#...#', '#...#', '#####', '#...#', '#...#', '#...#'],
  B: ['####.', '#...#', '#...#', '####.', '#...#', '#...#', '####.'],
  C: ['.###.', '#...#', '#....', '#....', '#....', '#...#', '.###.'],
};

const PICTURES: { file: string; initial: string; colour: Rgb }[] = [
  { file: 'alice.png', initial: 'A', colour: [0, 120, 212] },
  { file: 'bob.png', initial: 'B', colour: [16, 124, 16] },
  { file: 'carol.png', initial: 'C', colour: [135, 100, 184] },
];

function drawInitial(initial: string, background: Rgb): Buffer {
  const glyph = GLYPHS[initial];
  if (!glyph) throw new Error(`no glyph for ${initial}`);
  const left = (SIZE - 5 * SCALE) / 2;
  const top = (SIZE - 7 * SCALE) / 2;
  const rowBytes = 1 + SIZE * 3;
  const raw = Buffer.alloc(SIZE * rowBytes); // each row: filter byte 0 (None), then RGB pixels
  for (let y = 0; y < SIZE; y++) {
    for (let x = 0; x < SIZE; x++) {
      const row = glyph[Math.floor((y - top) / SCALE)];
      const column = Math.floor((x - left) / SCALE);
      const ink = x >= left && y >= top && row?.[column] === '#';
      raw.set(ink ? WHITE : background, y * rowBytes + 1 + x * 3);
    }
  }
  return raw;
}

function encodePng(width: number, height: number, rgbRows: Buffer): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit, truecolour RGB, deflate, standard filters, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rgbRows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function chunk(type: string, data: Buffer): Buffer {
  const typeAndData = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const out = Buffer.alloc(4 + typeAndData.length + 4); // length, type + data, CRC
  out.writeUInt32BE(data.length, 0);
  typeAndData.copy(out, 4);
  out.writeUInt32BE(crc32(typeAndData), 8 + data.length);
  return out;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = (CRC_TABLE[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

const folder = new URL('../demo/pictures/', import.meta.url);
mkdirSync(folder, { recursive: true });
for (const { file, initial, colour } of PICTURES) {
  const png = encodePng(SIZE, SIZE, drawInitial(initial, colour));
  writeFileSync(new URL(file, folder), png);
  console.log(`demo/pictures/${file}: ${png.length} bytes`);
}
