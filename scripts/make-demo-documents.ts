// Makes the demo tenant's library files (demo/documents/), small but real: a Word document
// (OOXML: a ZIP of three XML parts, written by hand with deflate from zlib), a PDF of one
// page (hand-written objects, the cross-reference table computed), a PNG logo (an SVG drawn
// by sharp) and a text file. Byte for byte the same on every run (fixed ZIP dates, no
// timestamps), so running it again changes nothing.
// Run: npx tsx scripts/make-demo-documents.ts   (Node 20.15 or later: zlib.crc32)

import { mkdirSync, writeFileSync } from 'node:fs';
import { crc32, deflateRawSync } from 'node:zlib';
import sharp from 'sharp';

const folder = new URL('../demo/documents/', import.meta.url);

// ---- a ZIP archive (PKWARE APPNOTE 4.3: local headers, central directory, end record)

function zip(entries: Array<{ name: string; data: string }>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const { name, data } of entries) {
    const raw = Buffer.from(data, 'utf8');
    const packed = deflateRawSync(raw, { level: 9 });
    const fileName = Buffer.from(name, 'utf8');
    const crc = crc32(raw);
    // Version 2.0, no flags, deflate, DOS time 00:00 and date 1980-01-01 (fixed: reproducible).
    const common = (header: Buffer, at: number) => {
      header.writeUInt16LE(20, at); header.writeUInt16LE(0, at + 2); header.writeUInt16LE(8, at + 4);
      header.writeUInt16LE(0, at + 6); header.writeUInt16LE(0x21, at + 8);
      header.writeUInt32LE(crc, at + 10); header.writeUInt32LE(packed.length, at + 14); header.writeUInt32LE(raw.length, at + 18);
      header.writeUInt16LE(fileName.length, at + 22); header.writeUInt16LE(0, at + 24);
    };
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    common(local, 4);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4); // made by: version 2.0
    common(central, 6);
    // comment length, disk number, internal and external attributes: 0; then the local header's offset
    central.writeUInt32LE(offset, 42);
    locals.push(local, fileName, packed);
    centrals.push(central, fileName);
    offset += local.length + fileName.length + packed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

// ---- a Word document: the three parts Word needs to open one

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const paragraph = (text: string, bold = false, size?: number) =>
  `<w:p><w:r>${bold || size ? `<w:rPr>${bold ? '<w:b/>' : ''}${size ? `<w:sz w:val="${size}"/>` : ''}</w:rPr>` : ''}<w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;

function projectPlan(): Buffer {
  const body = [
    paragraph('Project plan', true, 36),
    paragraph('Project: Apollo'),
    paragraph('Owner: Alice Adams'),
    paragraph('Goals', true, 28),
    paragraph('1. Ship the first release to the pilot group.'),
    paragraph('2. Collect feedback and plan the second release.'),
    paragraph('Milestones', true, 28),
    paragraph('Kick-off: 5 January 2026. Pilot: 2 March 2026. Release: 1 June 2026.'),
  ].join('');
  return zip([
    {
      name: '[Content_Types].xml',
      data: '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        + '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
        + '<Default Extension="xml" ContentType="application/xml"/>'
        + '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    },
    {
      name: '_rels/.rels',
      data: '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        + '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    },
    {
      name: 'word/document.xml',
      data: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:document xmlns:w="${W}"><w:body>${body}`
        + '<w:sectPr><w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="708" w:footer="708" w:gutter="0"/></w:sectPr></w:body></w:document>',
    },
  ]);
}

// ---- a PDF of one A4 page with a few lines of Helvetica

function quarterlyReport(): Buffer {
  const lines = ['Contoso - Quarterly Report', 'Q4 2025', '', 'Revenue grew 12% on the quarter.', 'Three projects shipped; two started.'];
  const text = lines.flatMap((line, i) => (line ? [`BT /F1 ${i === 0 ? 20 : 12} Tf 72 ${770 - i * 24} Td (${line}) Tj ET`] : [])).join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Length ${Buffer.byteLength(text, 'latin1')} >>\nstream\n${text}\nendstream`,
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  for (const [i, body] of objects.entries()) {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  }
  const xref = Buffer.byteLength(out, 'latin1');
  // Each entry exactly 20 bytes: ten digits, space, five digits, space, type, CR LF.
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f\r\n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n\r\n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

// ---- a logo: shapes only, so no font on the machine changes it

async function logo(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="160" height="160" viewBox="0 0 160 160">
    <rect x="8" y="8" width="144" height="144" rx="28" fill="#0078d4"/>
    <circle cx="80" cy="80" r="44" fill="none" stroke="#ffffff" stroke-width="18" stroke-dasharray="220 57"/>
    <rect x="104" y="70" width="30" height="20" fill="#0078d4"/>
  </svg>`;
  return sharp(Buffer.from(svg)).png({ compressionLevel: 9, palette: true }).toBuffer();
}

const NOTES = `Meeting notes - Apollo weekly
=============================

Attendees: Alice Adams, Bob Baker, Carol Chen

- The pilot group is confirmed (12 people in Engineering).
- Bob writes the release checklist by Friday.
- Next meeting: Monday, 10:00.
`;

mkdirSync(folder, { recursive: true });
const files: Array<[string, Buffer]> = [
  ['project-plan.docx', projectPlan()],
  ['quarterly-report.pdf', quarterlyReport()],
  ['contoso-logo.png', await logo()],
  ['meeting-notes.txt', Buffer.from(NOTES, 'utf8')],
];
for (const [name, bytes] of files) {
  writeFileSync(new URL(name, folder), bytes);
  console.log(`demo/documents/${name}: ${bytes.length} bytes`);
}
