// The door's two decoders, downloaded together as one chunk when the scanner starts.
export { Html5Qrcode, Html5QrcodeSupportedFormats } from 'html5-qrcode';
export { preferQrCode, readFrame } from './second-reader.ts';
