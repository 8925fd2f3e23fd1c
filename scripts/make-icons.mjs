#!/usr/bin/env node
// Writes every packaging icon from the one drawing the tray uses (trayBitmap in
// electron/main/tray-state.ts), so the app, its installers and its tray can never drift apart:
//   build/icons/icon.png  1024x1024 RGBA: Linux, and macOS (electron-builder derives the .icns)
//   build/icons/icon.ico  16…256 px PNG frames, each drawn at its own size: Windows
// Both are build outputs (git-ignored): `npm run dist` runs this before electron-builder.
// Needs tsx to load the TypeScript source: node --import tsx scripts/make-icons.mjs [outDir]
// Encoded by hand with node:zlib: no image tool or dependency.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32, deflateSync } from 'node:zlib';
import { trayBitmap } from '../electron/main/tray-state.ts';

/** The sizes the Windows .ico carries; 256 is the largest an ICO entry can declare. */
export const ICO_SIZES = [16, 24, 32, 48, 64, 128, 256];
/** The PNG size for Linux and macOS (1024 gives the .icns its largest, Retina 512@2x, frame). */
export const PNG_SIZE = 1024;

/** The app icon's RGBA pixels at `size`: the tray's calm icon, reordered from BGRA. */
export function iconPixels(size) {
  const pixels = trayBitmap(size, false);
  for (let i = 0; i < pixels.length; i += 4) {
    const blue = pixels[i];
    pixels[i] = pixels[i + 2];
    pixels[i + 2] = blue;
  }
  return pixels;
}

/** A PNG chunk: length, type, data, CRC of type+data. */
function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** An RGBA PNG of `size` x `size` pixels, every row with filter "none". */
export function encodePng(size, rgba) {
  const rows = [];
  for (let y = 0; y < size; y++) {
    rows.push(Buffer.from([0]), rgba.subarray(y * size * 4, (y + 1) * size * 4));
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8-bit, RGBA, deflate, adaptive filtering, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows), { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A PNG-in-ICO file (Vista and later): a 6-byte header, 16 bytes per entry, then the PNGs. */
export function encodeIco(frames) {
  const header = Buffer.alloc(6);
  header.writeUInt16LE(0, 0); // reserved
  header.writeUInt16LE(1, 2); // type 1 = icon
  header.writeUInt16LE(frames.length, 4);
  let offset = 6 + 16 * frames.length;
  const entries = frames.map(({ size, png }) => {
    const entry = Buffer.alloc(16);
    entry.writeUInt8(size >= 256 ? 0 : size, 0); // 0 means 256
    entry.writeUInt8(size >= 256 ? 0 : size, 1);
    entry.writeUInt16LE(1, 4); // colour planes
    entry.writeUInt16LE(32, 6); // bits per pixel
    entry.writeUInt32LE(png.length, 8);
    entry.writeUInt32LE(offset, 12);
    offset += png.length;
    return entry;
  });
  return Buffer.concat([header, ...entries, ...frames.map((frame) => frame.png)]);
}

/** Writes icon.png and icon.ico into `outDir`; returns their paths. */
export function writeIcons(outDir) {
  mkdirSync(outDir, { recursive: true });
  const png = path.join(outDir, 'icon.png');
  const ico = path.join(outDir, 'icon.ico');
  writeFileSync(png, encodePng(PNG_SIZE, iconPixels(PNG_SIZE)));
  const frames = ICO_SIZES.map((size) => ({ size, png: encodePng(size, iconPixels(size)) }));
  writeFileSync(ico, encodeIco(frames));
  return { png, ico };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const written = writeIcons(path.resolve(process.argv[2] ?? path.join(root, 'build', 'icons')));
  console.log(`make-icons: ${path.relative(root, written.png)}, ${path.relative(root, written.ico)}`);
}
