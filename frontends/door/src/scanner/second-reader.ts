import jsQRModule from 'jsqr';

// jsQR ships one CommonJS bundle: a bundler's default import is the function; Node's is `module.exports`, which
// carries it as `default`.
const jsQR: typeof jsQRModule = (jsQRModule as unknown as { default?: typeof jsQRModule }).default ?? jsQRModule;

/** The pixels of one camera frame, as a canvas's `getImageData` gives them (RGBA). */
export interface Frame {
  data: Uint8ClampedArray;
  width: number;
  height: number;
}

/**
 * The text of the QR code in a frame the first decoder gave up on. Without a native BarcodeDetector (iPhones,
 * Firefox) html5-qrcode decodes with ZXing, which misses a few percent of sharp, steady frames of a ticket at
 * some sizes; jsQR reads those. Tickets are dark on light, so inverted codes are not searched for.
 */
export const readFrame = (frame: Frame): string | undefined =>
  jsQR(frame.data, frame.width, frame.height, { inversionAttempts: 'dontInvert' })?.data || undefined;

/**
 * The text of a frame the first decoder read as a barcode of another format than QR. With those formats on, ZXing
 * tries them before QR codes and now and then reads an EAN-8 or UPC-E off a ticket's QR code: a QR code in the frame
 * wins.
 */
export const preferQrCode = (barcodeText: string, frame: Frame | undefined): string =>
  (frame && readFrame(frame)) ?? barcodeText;
