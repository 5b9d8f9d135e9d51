import { keptUntil } from '../src/door/kept-until.ts';
import { parseQrText } from '../src/door/qr-claims.ts';

const base64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');

test('an event’s data is kept until 6 am of the next day in São Paulo, late-night events included', () => {
  const nextMorning = Date.parse('2026-11-27T06:00:00-03:00');
  for (const date of ['2026-11-26T00:00:00-03:00', '2026-11-26T13:00:00.000Z', '2026-11-26T23:30:00-03:00'])
    expect({ date, until: keptUntil(date) }).toEqual({ date, until: nextMorning });
  // 01:00 UTC on the 27th is still the 26th in São Paulo.
  expect(keptUntil('2026-11-27T01:00:00.000Z')).toBe(nextMorning);
  // Month and year ends roll over.
  expect(keptUntil('2026-12-31T20:00:00-03:00')).toBe(Date.parse('2027-01-01T06:00:00-03:00'));
});

test('a queued reading keeps the claims of the QR code, the ticket, its event and version, not the text', () => {
  const ticketId = '7d26f0b5-756a-4af0-82b0-1d6d533ec1dc';
  const eventId = '0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0';
  const payload = Buffer.concat([
    Buffer.from(ticketId.replaceAll('-', ''), 'hex'),
    Buffer.from(eventId.replaceAll('-', ''), 'hex'),
    Buffer.of(3),
  ]);
  const signature = base64url(new Uint8Array(64).fill(7));
  const text = `T1.${base64url(payload)}.chave-1.${signature}`;
  const parsed = parseQrText(text)!;
  expect(parsed.claims).toEqual({ ticketId, eventId, version: 3 });
  expect(parsed.kid).toBe('chave-1');
  expect(new TextDecoder().decode(parsed.signed)).toBe(`T1.${base64url(payload)}.chave-1`);

  const noVersion = Buffer.concat([payload.subarray(0, 32), Buffer.of(0)]);
  for (const other of [
    'não é um ingresso',
    `T2.${base64url(payload)}.chave-1.${signature}`,
    `T1.${base64url(payload.subarray(1))}.chave-1.${signature}`,
    `T1.${base64url(noVersion)}.chave-1.${signature}`,
    `T1.${base64url(payload)}.chave-1.${signature}x`,
  ])
    expect({ other, parsed: parseQrText(other) }).toEqual({ other, parsed: undefined });
});
