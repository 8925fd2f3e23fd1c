#!/usr/bin/env node
// Writes build/icon.png: a 512x512 RGBA rounded square, encoded by hand with node:zlib so that
// the app icon can be regenerated without any image tool or dependency.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32, deflateSync } from 'node:zlib';

const size = 512;
const radius = 96;
const colour = [0x2f, 0x6f, 0xeb]; // one flat blue; electron-builder derives every other size

/** A PNG chunk: length, type, data, CRC of type+data. */
function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** Alpha of pixel (x, y): 255 inside the rounded square, 0 outside, one pixel of edge blend. */
function alpha(x, y) {
  const cx = Math.min(Math.max(x + 0.5, radius), size - radius);
  const cy = Math.min(Math.max(y + 0.5, radius), size - radius);
  const distance = Math.hypot(x + 0.5 - cx, y + 0.5 - cy);
  return Math.round(255 * Math.min(1, Math.max(0, radius - distance + 0.5)));
}

const rows = [];
for (let y = 0; y < size; y++) {
  const row = Buffer.alloc(1 + size * 4); // leading 0 = filter "none"
  for (let x = 0; x < size; x++) row.set([...colour, alpha(x, y)], 1 + x * 4);
  rows.push(row);
}

const header = Buffer.alloc(13);
header.writeUInt32BE(size, 0);
header.writeUInt32BE(size, 4);
header.set([8, 6, 0, 0, 0], 8); // 8-bit, RGBA, deflate, adaptive filtering, no interlace

const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  chunk('IHDR', header),
  chunk('IDAT', deflateSync(Buffer.concat(rows), { level: 9 })),
  chunk('IEND', Buffer.alloc(0)),
]);
const out = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'build', 'icon.png');
writeFileSync(out, png);
console.log(`make-icon: ${out} (${png.length} bytes)`);
