import QRCode from 'qrcode';

/**
 * A QR code as a PNG, for tickets and PIX payments alike: medium error correction (survives a scratched screen) and
 * a quiet zone of `margin` modules, `scale` pixels each. Its flat black and white rows gain nothing from PNG's
 * adaptive row filters, which are the costly part wherever JavaScript runs slowly (twenty times the rest under the
 * tests' module sandbox): unfiltered rows with plain deflate give a smaller file, a little faster.
 */
export const qrCodePng = (text: string, { margin = 2, scale = 4 } = {}): Promise<Buffer> =>
  QRCode.toBuffer(text, {
    errorCorrectionLevel: 'M',
    margin,
    scale,
    type: 'png',
    rendererOpts: { filterType: 0, deflateStrategy: 0, deflateLevel: 6 },
  } as QRCode.QRCodeToBufferOptions);
