import { createHash, createPrivateKey } from 'node:crypto';
import { createRequire } from 'node:module';
import { PNG } from 'pngjs';
import { toQrPng } from '../../../services/tickets/src/domain/issue-ticket.ts';
import { signTicket } from '../../../services/tickets/src/domain/qr-code.ts';
import { preferQrCode, readFrame, type Frame } from '../src/scanner/second-reader.ts';

// The ZXing build html5-qrcode decodes with, set up as html5-qrcode sets it up for the door (no "try harder"): QR
// codes only, or with the barcode formats too.
const ZXing = createRequire(import.meta.url)('html5-qrcode/third_party/zxing-js.umd.js');
const zxingHints = (formats: string[]) =>
  new Map<unknown, unknown>([
    [ZXing.DecodeHintType.POSSIBLE_FORMATS, formats.map((format) => ZXing.BarcodeFormat[format])],
    [ZXing.DecodeHintType.TRY_HARDER, false],
  ]);
const QR_ONLY = zxingHints(['QR_CODE']);
const WITH_BARCODES = zxingHints([
  'QR_CODE',
  'AZTEC',
  'CODE_39',
  'CODE_93',
  'CODE_128',
  'EAN_8',
  'EAN_13',
  'PDF_417',
  'UPC_A',
  'UPC_E',
]);

/** The scan box html5-qrcode copies each camera frame into (250 × 250 at the door). */
const BOX = 250;

/** The same bytes on every run: the set of frames, and so the result, never changes. */
const bytes = (seed: string, length: number) => createHash('sha512').update(seed).digest().subarray(0, length);
const uuid = (seed: string) =>
  bytes(seed, 16)
    .toString('hex')
    .replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');
// An Ed25519 private key is its 32-byte seed behind a fixed PKCS #8 header.
const key = {
  kid: 'k1',
  privateKey: createPrivateKey({
    key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), bytes('door key', 32)]),
    format: 'der',
    type: 'pkcs8',
  }),
};

/** A ticket's QR text and image, as the tickets service issues them. */
async function ticketQr(n: number) {
  const text = signTicket({ ticketId: uuid(`ticket ${n}`), eventId: uuid('event'), version: 1 }, key);
  const dataUrl = toQrPng(text);
  const png = PNG.sync.read(Buffer.from(dataUrl.replace(/^data:image\/png;base64,/, ''), 'base64'));
  return { text, png };
}

/**
 * The scan box with the ticket's image `side` pixels wide in its middle on white: a camera's picture of a steady,
 * sharp ticket held at some distance. Scaled by averaging (the way a camera's sensor and a canvas shrink a picture).
 */
function frameOf(png: PNG, side: number): Frame {
  // Local names: a global looked up in a test's sandbox is slow in a loop this hot.
  const { min, max, floor, ceil, round } = Math;
  const data = new Uint8ClampedArray(BOX * BOX * 4).fill(255);
  const scale = png.width / side;
  const offset = floor((BOX - side) / 2);
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      let sum = 0;
      let area = 0;
      for (let sy = floor(y * scale); sy < ceil((y + 1) * scale); sy++) {
        for (let sx = floor(x * scale); sx < ceil((x + 1) * scale); sx++) {
          const weight =
            (min(sx + 1, (x + 1) * scale) - max(sx, x * scale)) * (min(sy + 1, (y + 1) * scale) - max(sy, y * scale));
          sum += png.data[(min(sy, png.height - 1) * png.width + min(sx, png.width - 1)) * 4]! * weight;
          area += weight;
        }
      }
      const at = ((y + offset) * BOX + x + offset) * 4;
      data[at] = data[at + 1] = data[at + 2] = round(sum / area);
    }
  }
  return { data, width: BOX, height: BOX };
}

function readByZxing(frame: Frame, hints = QR_ONLY): { text: string; format: string } | undefined {
  // The frames are grey: any channel is the luminance ZXing reads.
  const grey = frame.data.filter((_, i) => i % 4 === 0);
  const luminance = new ZXing.RGBLuminanceSource(grey, frame.width, frame.height);
  try {
    const result = new ZXing.MultiFormatReader().decode(
      new ZXing.BinaryBitmap(new ZXing.HybridBinarizer(luminance)),
      hints,
    );
    return { text: result.text, format: ZXing.BarcodeFormat[result.format] };
  } catch {
    return undefined;
  }
}

test('every ticket is read at all distances but one at most, those ZXing alone misses again and again too', async () => {
  const sides = Array.from({ length: 18 }, (_, i) => 130 + i * 7); // 130 to 249 px: far from the box to filling it
  // Ticket → how many distances it was missed at.
  const missedByZxing = new Map<number, number>();
  const missedByDoor = new Map<number, number>();
  const note = (misses: Map<number, number>, n: number) => misses.set(n, (misses.get(n) ?? 0) + 1);
  for (let n = 0; n < 40; n++) {
    const { text, png } = await ticketQr(n);
    for (const side of sides) {
      const frame = frameOf(png, side);
      if (readByZxing(frame)?.text === text) continue;
      note(missedByZxing, n);
      if (readFrame(frame) !== text) note(missedByDoor, n);
    }
  }
  const worst = (misses: Map<number, number>) => Math.max(0, ...misses.values());
  // Some tickets defeat ZXing at distance after distance (one at half of them): the frames a door phone without
  // BarcodeDetector would show it while its holder waits.
  expect(worst(missedByZxing)).toBeGreaterThan(1);
  // With the second reader, no ticket is missed at more than one distance of the 18.
  expect(worst(missedByDoor)).toBeLessThanOrEqual(1);
}, 120_000);

test('with barcodes on, a ticket ZXing reads as an 8-digit barcode is read as its QR code', async () => {
  // Tickets and distances (of the tickets 1,000 to 1,299, at 18 distances) where ZXing, trying the barcode formats
  // first, reads a number off the QR code's modules: 9 frames of 5,400.
  const trapped = [
    [1010, 184],
    [1105, 208],
    [1112, 144],
    [1120, 136],
    [1141, 128],
    [1224, 184],
    [1253, 144],
    [1255, 176],
    [1281, 176],
  ];
  for (const [n, side] of trapped as [number, number][]) {
    const { text, png } = await ticketQr(n);
    const frame = frameOf(png, side);
    const zxing = readByZxing(frame, WITH_BARCODES)!;
    expect(zxing).toMatchObject({
      format: expect.stringMatching(/^(EAN_8|UPC_E)$/),
      text: expect.stringMatching(/^\d{8}$/),
    });
    expect(preferQrCode(zxing.text, frame)).toBe(text);
  }
});

test('a barcode with no QR code in its frame is read as the barcode', () => {
  const blank = { data: new Uint8ClampedArray(BOX * BOX * 4).fill(255), width: BOX, height: BOX };
  expect(preferQrCode('01094879', blank)).toBe('01094879');
  expect(preferQrCode('01094879', undefined)).toBe('01094879');
});

test('a frame without a QR code reads as nothing', () => {
  const data = new Uint8ClampedArray(BOX * BOX * 4).map((_, i) => (i % 4 === 3 ? 255 : (i * 37) % 256));
  expect(readFrame({ data, width: BOX, height: BOX })).toBeUndefined();
});
