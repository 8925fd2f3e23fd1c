/**
 * Readers for the icon files scripts/make-icons.mjs writes: a PNG (checked chunk by chunk,
 * pixels inflated) and a PNG-in-ICO directory. Independent of the writer, so a test of one
 * against the other can fail.
 */
import assert from 'node:assert/strict';
import { crc32, inflateSync } from 'node:zlib';

/** A decoded 8-bit RGBA PNG. */
export interface PngImage {
  width: number;
  height: number;
  colourType: number;
  /** RGBA, row after row (only filter type 0 is decoded: the one our writer uses). */
  rgba: Buffer;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Parses a PNG, checking its signature and every chunk's CRC. */
export function readPng(file: Buffer): PngImage {
  assert.deepEqual([...file.subarray(0, 8)], PNG_SIGNATURE, 'PNG signature');
  let offset = 8;
  let header: Buffer | undefined;
  const data: Buffer[] = [];
  while (offset < file.length) {
    const length = file.readUInt32BE(offset);
    const type = file.subarray(offset + 4, offset + 8).toString('ascii');
    const body = file.subarray(offset + 8, offset + 8 + length);
    assert.equal(
      file.readUInt32BE(offset + 8 + length),
      crc32(file.subarray(offset + 4, offset + 8 + length)),
    );
    if (type === 'IHDR') header = body;
    if (type === 'IDAT') data.push(body);
    offset += 12 + length;
    if (type === 'IEND') break;
  }
  assert.ok(header, 'IHDR chunk');
  const width = header.readUInt32BE(0);
  const height = header.readUInt32BE(4);
  const colourType = header[9];
  assert.equal(header[8], 8, 'bit depth 8');
  const raw = inflateSync(Buffer.concat(data));
  assert.equal(raw.length, height * (1 + width * 4), 'one filter byte and width RGBA pixels per row');
  const rgba = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) {
    const row = y * (1 + width * 4);
    assert.equal(raw[row], 0, `row ${y} uses filter 0`);
    raw.copy(rgba, y * width * 4, row + 1, row + 1 + width * 4);
  }
  return { width, height, colourType, rgba };
}

/** One image of an ICO directory. */
export interface IcoEntry {
  /** 1–256 (the file stores 256 as 0). */
  width: number;
  height: number;
  bitsPerPixel: number;
  data: Buffer;
}

/** Parses an ICO file's header and directory; each entry's bytes are returned as stored. */
export function readIco(file: Buffer): IcoEntry[] {
  assert.equal(file.readUInt16LE(0), 0, 'reserved');
  assert.equal(file.readUInt16LE(2), 1, 'type 1: icon');
  const count = file.readUInt16LE(4);
  return Array.from({ length: count }, (_, index) => {
    const at = 6 + 16 * index;
    const size = file.readUInt32LE(at + 8);
    const offset = file.readUInt32LE(at + 12);
    assert.ok(offset + size <= file.length, `entry ${index} lies inside the file`);
    return {
      width: file[at] || 256,
      height: file[at + 1] || 256,
      bitsPerPixel: file.readUInt16LE(at + 6),
      data: file.subarray(offset, offset + size),
    };
  });
}
