/**
 * The QR text (see the tickets service): `T1.<payload>.<kid>.<signature>`, the payload being ticket id (16 bytes),
 * event id (16 bytes) and version (1 byte), the Ed25519 signature covering everything before its dot.
 */
export interface Claims {
  ticketId: string;
  eventId: string;
  version: number;
}

export interface QrText {
  claims: Claims;
  kid: string;
  /** The bytes the signature covers. */
  signed: Uint8Array;
  signature: Uint8Array;
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

export function base64url(text: string, length: number): Uint8Array | undefined {
  if (!BASE64URL.test(text)) return undefined;
  try {
    const binary = atob(text.replaceAll('-', '+').replaceAll('_', '/'));
    const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
    return bytes.length === length ? bytes : undefined;
  } catch {
    return undefined;
  }
}

function uuidOf(bytes: Uint8Array): string {
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The parts of a text shaped like one of our QR codes, its signature not checked yet; undefined for anything else. */
export function parseQrText(text: string): QrText | undefined {
  const parts = text.split('.');
  if (parts.length !== 4 || parts[0] !== 'T1') return undefined;
  const [, payloadText, kid, signatureText] = parts as [string, string, string, string];
  const payload = base64url(payloadText, 33);
  const signature = base64url(signatureText, 64);
  if (!payload || !signature || payload[32] === 0) return undefined;
  return {
    claims: {
      ticketId: uuidOf(payload.subarray(0, 16)),
      eventId: uuidOf(payload.subarray(16, 32)),
      version: payload[32]!,
    },
    kid,
    signed: new TextEncoder().encode(text.slice(0, text.lastIndexOf('.'))),
    signature,
  };
}
