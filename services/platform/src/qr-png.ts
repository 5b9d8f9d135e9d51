import { crc32, deflateSync } from 'node:zlib';
import QRCode, { type QRCodeMaskPattern } from 'qrcode';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A QR code as a PNG, for tickets and PIX payments alike: medium error correction (survives a scratched screen),
 * black modules on white, a quiet zone of `margin` modules and `scale` pixels a module. The text is one byte-mode
 * segment: searching for the mix of modes that fits it in the fewest modules costs more than the rest of the code
 * together, for a symbol at most a version larger (a PIX code's 53 modules a side instead of 49; a ticket's no
 * larger), which every reader reads alike. Drawn as 1-bit grey rows without PNG's row filters, which gain nothing on
 * flat black and white: each module row is drawn once and copied, and zlib, at its fastest level (about a kilobyte
 * more than its default, for a fifth of the time), compresses an eighth of what 8-bit rows would give it.
 * `maskPattern` (0–7) fixes the mask instead of scoring all eight for the one that reads most surely, which is two
 * thirds of the work: every mask gives a valid code.
 */
export function qrCodePng(
  text: string,
  { margin = 2, scale = 4, maskPattern }: { margin?: number; scale?: number; maskPattern?: QRCodeMaskPattern } = {},
): Buffer {
  const { modules } = QRCode.create([{ data: Buffer.from(text), mode: 'byte' }], {
    errorCorrectionLevel: 'M',
    maskPattern,
  });
  const side = (modules.size + 2 * margin) * scale;
  // Each row: its filter byte (0, none) and one bit a pixel, 1 for white, the last byte padded.
  const stride = 1 + Math.ceil(side / 8);
  const rows = Buffer.alloc(stride * side, 0xff);
  const line = Buffer.alloc(stride);
  for (let moduleRow = 0; moduleRow < modules.size; moduleRow++) {
    line.fill(0xff);
    for (let col = 0; col < modules.size; col++) {
      if (!modules.get(moduleRow, col)) continue;
      for (let x = (col + margin) * scale, end = x + scale; x < end; x++) line[1 + (x >> 3)]! &= ~(0x80 >> (x & 7));
    }
    for (let copy = 0; copy < scale; copy++) line.copy(rows, ((moduleRow + margin) * scale + copy) * stride);
  }
  for (let y = 0; y < side; y++) rows[y * stride] = 0;
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header.set([1, 0, 0, 0, 0], 8); // bit depth 1, grey, deflate, adaptive filtering (method 0), no interlace
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 1 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
