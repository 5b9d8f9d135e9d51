// Types only: the decoders themselves are downloaded when the camera starts.
import type { Html5Qrcode, Html5QrcodeResult } from 'html5-qrcode';
import type { Frame } from './second-reader.ts';

/** The scan settings of the door (spec §9): 10 frames per second in a 250 × 250 box. */
const FPS = 10;
const BOX = 250;

/** The decoder's code could not be downloaded (as opposed to the camera being refused or missing). */
export class DecoderUnavailable extends Error {}

/** A running camera: how to stop it, and its flashlight when the camera has one the browser may switch. */
export interface RunningCamera {
  stop(): Promise<void>;
  torch: { switch(on: boolean): Promise<void> } | null;
}

/**
 * Starts the back camera inside the element `elementId` and calls `onRead` with every text it decodes. Only QR codes
 * unless `barcodes`, which adds the other formats tickets may carry.
 */
export async function startCamera(
  elementId: string,
  onRead: (text: string) => void,
  { barcodes }: { barcodes: boolean },
): Promise<RunningCamera> {
  // The decoders are large: they are downloaded here, on the door's page, and nowhere else.
  const {
    Html5Qrcode,
    Html5QrcodeSupportedFormats: Format,
    readFrame,
    preferQrCode,
  } = await import(/* webpackChunkName: "qr-decoders" */ './decoders.ts').catch(() => {
    throw new DecoderUnavailable();
  });
  const formats = barcodes
    ? [
        Format.QR_CODE,
        Format.AZTEC,
        Format.CODE_39,
        Format.CODE_93,
        Format.CODE_128,
        Format.EAN_8,
        Format.EAN_13,
        Format.PDF_417,
        Format.UPC_A,
        Format.UPC_E,
      ]
    : [Format.QR_CODE];
  const scanner = new Html5Qrcode(elementId, {
    verbose: false,
    formatsToSupport: formats,
    useBarCodeDetectorIfSupported: true,
  });
  // html5-qrcode leaves each frame in the canvas it adds to the element: the frame just decoded, or given up on.
  const frame = (): Frame | undefined => {
    const context = document.getElementById(elementId)?.querySelector('canvas')?.getContext('2d');
    return context?.getImageData(0, 0, context.canvas.width, context.canvas.height);
  };
  const read = (text: string, { result }: Html5QrcodeResult) =>
    onRead(result.format?.format === Format.QR_CODE ? text : preferQrCode(text, frame()));
  // A frame ZXing gave up on is read again. A native BarcodeDetector (Android) needs no second reader, and spares
  // the phone the work.
  const readAgain = () => {
    const current = frame();
    const text = current && readFrame(current);
    if (text) onRead(text);
  };
  await scanner.start(
    // Not `{ exact: 'environment' }`: cameras that report no facing mode would be refused instead of used.
    { facingMode: 'environment' },
    {
      fps: FPS,
      // A back camera never films a mirrored code: html5-qrcode's flip would only decode each failed frame twice.
      disableFlip: true,
      // A small viewfinder (a narrow phone held sideways) gets the largest square that fits.
      qrbox: (width, height) => {
        const side = Math.max(50, Math.min(BOX, width, height));
        return { width: side, height: side };
      },
    },
    read,
    'BarcodeDetector' in window ? undefined : readAgain,
  );
  return {
    async stop() {
      await scanner.stop();
      scanner.clear();
    },
    torch: torchOf(scanner),
  };
}

/** The running track's torch, if it reports one (phones' back cameras on Android; not iPhones, not laptops). */
function torchOf(scanner: Html5Qrcode): RunningCamera['torch'] {
  try {
    const torch = scanner.getRunningTrackCameraCapabilities().torchFeature();
    return torch.isSupported() ? { switch: (on) => torch.apply(on) } : null;
  } catch {
    // A browser without track capabilities has no torch to offer.
    return null;
  }
}
