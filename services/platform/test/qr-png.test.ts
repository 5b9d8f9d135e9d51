import { qrCodePng } from '../src/qr-png.ts';
import { readQrCode } from '@ticketing/testkit';

const PIX =
  '00020101021226580014br.gov.bcb.pix0136a1b2c3d4-e5f6-4789-8abc-def012345678520400005303986540566.605802BR' +
  '5913EVENTOS FARMA6009SAO PAULO62140510ABC123DEF46304B1C2';
const MASKS = [0, 1, 2, 3, 4, 5, 6, 7] as const;

test('a QR code reads back its text, with the mask it scores best and with each of the eight fixed', () => {
  expect(readQrCode(qrCodePng(PIX, { scale: 8, margin: 4 }))).toBe(PIX);
  const drawn = MASKS.map((maskPattern) => qrCodePng(PIX, { scale: 8, margin: 4, maskPattern }));
  for (const image of drawn) expect(readQrCode(image)).toBe(PIX);
  // Each mask draws a code of its own: the one asked for is the one used.
  expect(new Set(drawn.map((image) => image.toString('hex'))).size).toBe(MASKS.length);
});
