import { generateKeyPairSync, sign, verify } from 'node:crypto';
import { decideReading, parseQrText, trustedClaims, type TicketAtDoor, type TicketClaims } from '../src/index.ts';

const ticketId = '7d26f0b5-756a-4af0-82b0-1d6d533ec1dc';
const eventId = '0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0';
const otherEventId = '5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d';
const base64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const payloadOf = (version: number) =>
  Buffer.concat([
    Buffer.from(ticketId.replaceAll('-', ''), 'hex'),
    Buffer.from(eventId.replaceAll('-', ''), 'hex'),
    Buffer.of(version),
  ]);

test('a QR text is read in its one canonical spelling, its claims and the bytes its signature covers', () => {
  const payload = payloadOf(3);
  const signature = base64url(new Uint8Array(64).fill(7));
  const text = `T1.${base64url(payload)}.chave-1.${signature}`;
  const parsed = parseQrText(text)!;
  expect(parsed.claims).toEqual({ ticketId, eventId, version: 3 });
  expect(parsed.kid).toBe('chave-1');
  expect(new TextDecoder().decode(parsed.signed)).toBe(`T1.${base64url(payload)}.chave-1`);
  expect(parsed.signature).toEqual(new Uint8Array(64).fill(7));

  // The signature's last character carries 2 unused bits: another letter there decodes to the same bytes.
  const sameBytes = signature.slice(0, -1) + String.fromCharCode(signature.charCodeAt(85) + 1);
  const noVersion = Buffer.concat([payload.subarray(0, 32), Buffer.of(0)]);
  for (const other of [
    'não é um ingresso',
    `T2.${base64url(payload)}.chave-1.${signature}`,
    `T1.${base64url(payload.subarray(1))}.chave-1.${signature}`,
    `T1.${base64url(noVersion)}.chave-1.${signature}`,
    `T1.${base64url(payload)}.chave-1.${signature}x`,
    `T1.${base64url(payload)}.chave-1.${sameBytes}`,
    `T1.${base64url(payload)}.chave+1.${signature}`,
    `T1.${base64url(payload)}.${'k'.repeat(17)}.${signature}`,
    `T1.${base64url(payload)}=.chave-1.${signature}`,
    `T1.${base64url(payload)}.chave-1.${signature}.${'x'.repeat(400)}`,
  ])
    expect({ other, parsed: parseQrText(other) }).toEqual({ other, parsed: undefined });
});

test('only a text whose signature checks out gives its claims', async () => {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const signed = `T1.${base64url(payloadOf(1))}.k1`;
  const text = `${signed}.${base64url(sign(null, Buffer.from(signed), privateKey))}`;
  const checks = (qr: { signed: Uint8Array; signature: Uint8Array }) =>
    verify(null, qr.signed, publicKey, qr.signature);
  expect(await trustedClaims(text, checks)).toEqual({ ticketId, eventId, version: 1 });
  const forged = `${signed}.${base64url(new Uint8Array(64))}`;
  expect(await trustedClaims(forged, checks)).toBeUndefined();
  expect(await trustedClaims('texto qualquer', () => true)).toBeUndefined();
});

describe('the door rule', () => {
  const claims: TicketClaims = { ticketId, eventId, version: 2 };
  const ticket: TicketAtDoor = { eventId, version: 2, status: 'valid', usedAt: null };
  const decide = (changes: Partial<Parameters<typeof decideReading>[0]>) =>
    decideReading({ claims, doorEventId: eventId, ticket, ...changes });

  test('admits a signed, current, valid and unused ticket of the door’s event, or of any event at an open door', () => {
    expect(decide({})).toEqual({ code: 'valid', message: 'Ingresso válido' });
    expect(decide({ doorEventId: undefined })).toEqual({ code: 'valid', message: 'Ingresso válido' });
  });

  test('says why it refuses, each check in its order', () => {
    const usedAt = new Date('2026-11-27T12:05:00Z');
    const cases = {
      unsigned: decide({ claims: undefined, ticket: undefined }),
      otherEvent: decide({ doorEventId: otherEventId, ticket: undefined, claimedEventTitle: 'Congresso' }),
      otherEventUnknownTitle: decide({ doorEventId: otherEventId, ticket: { ...ticket, status: 'cancelled' } }),
      unknown: decide({ ticket: undefined }),
      movedEvent: decide({ ticket: { ...ticket, eventId: otherEventId, version: 1 } }),
      reissued: decide({ ticket: { ...ticket, version: 3, status: 'cancelled', usedAt } }),
      cancelled: decide({ ticket: { ...ticket, status: 'cancelled', usedAt } }),
      used: decide({ ticket: { ...ticket, usedAt } }),
      usedOnPhone: decide({ ticket: { ...ticket, usedAt: usedAt.toISOString() } }),
    };
    expect(cases).toEqual({
      unsigned: { code: 'invalid', message: 'QR Code inválido' },
      otherEvent: { code: 'wrong_event', message: 'Ingresso de outro evento: Congresso' },
      otherEventUnknownTitle: { code: 'wrong_event', message: 'Ingresso de outro evento' },
      unknown: { code: 'not_found', message: 'Ingresso não encontrado' },
      movedEvent: { code: 'invalid', message: 'QR Code inválido' },
      reissued: {
        code: 'invalid',
        message: 'QR Code inválido: este ingresso foi reemitido, apresente o QR Code mais recente',
      },
      cancelled: { code: 'cancelled', message: 'Ingresso cancelado' },
      used: { code: 'already_used', message: 'Ingresso já utilizado em 27/11/2026 às 09:05' },
      usedOnPhone: { code: 'already_used', message: 'Ingresso já utilizado em 27/11/2026 às 09:05' },
    });
  });
});
