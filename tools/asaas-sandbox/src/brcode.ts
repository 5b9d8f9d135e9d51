/** PIX BR Code (EMV QRCPS-MPM) as the Banco Central's manual describes it. */

/** CRC16-CCITT-FALSE: polynomial 0x1021, initial 0xFFFF, no reflection, no final xor; 4 upper-case hex digits. */
export function crc16(text: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(text, 'utf8')) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

/** One EMV field: 2-digit id, 2-digit length, value. */
export function field(id: string, value: string): string {
  if (value.length > 99) throw new Error(`BR Code field ${id} longer than 99 characters`);
  return `${id}${String(value.length).padStart(2, '0')}${value}`;
}

/** Upper-case ASCII without accents, cut to `max` characters, as fields 59 and 60 require. */
export function plainText(value: string, max: number): string {
  return value
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9 ]/g, '')
    .toUpperCase()
    .trim()
    .slice(0, max);
}

export interface BrCodeInput {
  pixKey: string;
  /** Cents. */
  amountCents: number;
  merchantName: string;
  merchantCity: string;
  /** Letters and digits, up to 25. */
  txid: string;
}

export function buildBrCode(input: BrCodeInput): string {
  const amount = `${Math.trunc(input.amountCents / 100)}.${String(input.amountCents % 100).padStart(2, '0')}`;
  const txid = input.txid.replace(/[^A-Za-z0-9]/g, '').slice(0, 25) || '***';
  const body =
    field('00', '01') +
    field('01', '12') +
    field('26', field('00', 'br.gov.bcb.pix') + field('01', input.pixKey)) +
    field('52', '0000') +
    field('53', '986') +
    field('54', amount) +
    field('58', 'BR') +
    field('59', plainText(input.merchantName, 25)) +
    field('60', plainText(input.merchantCity, 15)) +
    field('62', field('05', txid)) +
    '6304';
  return body + crc16(body);
}

/** Splits a TLV string into its fields (for reading codes back). */
export function parseTlv(text: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (let at = 0; at < text.length;) {
    const id = text.slice(at, at + 2);
    const length = Number(text.slice(at + 2, at + 4));
    if (!/^\d{2}$/.test(id) || !Number.isInteger(length)) throw new Error(`malformed TLV at ${at}`);
    fields.set(id, text.slice(at + 4, at + 4 + length));
    at += 4 + length;
  }
  return fields;
}
