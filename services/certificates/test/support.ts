import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { defineService } from '@ticketing/platform';
import {
  createTestIssuer,
  dropSchemas,
  publishAsOwner,
  readQrCode,
  startTestService,
  uniqueName,
  waitFor,
  type TestService,
} from '@ticketing/testkit';
import type { Envelope, EventPayload, EventType } from '@ticketing/proto';
import { PNG } from 'pngjs';
import { certificatesService, type CertificatesConfig } from '../src/index.ts';

/** Stands in for catalog, tickets, orders and identity: writes their events signed as each of them. */
const standIn = defineService({ name: 'certificates-sources', migrations: [], setup: () => ({}) });

export const SITE = 'https://ingressos.example.com.br';
const HOUR_MS = 60 * 60 * 1000;

export interface Harness {
  service: TestService<CertificatesConfig>;
  adminToken: string;
  /** A signed-in holder's token (their account's e-mail, when it matters). */
  tokenOf(userId: string, email?: string): Promise<string>;
  /** Publishes an event as its owner would, and waits until certificates handled it. */
  emit<T extends EventType>(type: T, payload: EventPayload<T>): Promise<Envelope>;
  /** The certificate.issued events certificates published, oldest first. */
  issuedEvents(): Promise<EventPayload<'certificate.issued'>[]>;
  /** Another replica of the service, on the same schema and bus (stopped with the harness). */
  startReplica(): Promise<TestService<CertificatesConfig>>;
  api(
    path: string,
    init?: { method?: string; token?: string | null; body?: unknown; headers?: Record<string, string> },
  ): Promise<Response>;
  stop(): Promise<void>;
}

export async function startCertificates(env: Record<string, string> = {}): Promise<Harness> {
  const busSchema = uniqueName('bus');
  const issuer = await createTestIssuer();
  const sources = await startTestService(standIn, { busSchema });
  const service = await startTestService(certificatesService, {
    busSchema,
    verifyToken: issuer.verifyToken,
    env: { PUBLIC_URL: SITE, AUTO_RELEASE_POLL_MS: '0', ...env },
  });
  const adminToken = await issuer.sign({ isAdmin: true, name: 'Coordenação' });
  const replicas: TestService<CertificatesConfig>[] = [];
  return {
    service,
    adminToken,
    tokenOf: (id, email) => issuer.sign({ id, isAdmin: false, ...(email ? { email } : {}) }),
    async emit(type, payload) {
      const { orderId, ticketId, eventId, userId } = payload as Record<string, string | undefined>;
      const envelope = await publishAsOwner(sources, type, ticketId ?? orderId ?? userId ?? eventId ?? type, payload);
      await waitFor(async () => (await service.db('inbox').where({ event_id: envelope.id })).length === 1);
      return envelope;
    },
    async issuedEvents() {
      const rows = (await service.db('outbox').where({ topic: 'certificate.issued' }).orderBy('seq')) as {
        envelope: Envelope;
      }[];
      return rows.map((row) => row.envelope.payload as EventPayload<'certificate.issued'>);
    },
    api(path, { method = 'GET', token, body, headers = {} } = {}) {
      return fetch(service.url + path, {
        method,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    },
    async startReplica() {
      const replica = await startTestService(certificatesService, {
        busSchema,
        verifyToken: issuer.verifyToken,
        env: { PUBLIC_URL: SITE, AUTO_RELEASE_POLL_MS: '0', ...env, DB_SCHEMA: service.schema },
      });
      replicas.push(replica);
      return replica;
    },
    async stop() {
      for (const replica of replicas) await replica.stop();
      await service.stop();
      await sources.stop();
      await dropSchemas([busSchema]);
    },
  };
}

/** An event whose sessions (of `hours` each, a day apart) started `startedHoursAgo` hours ago. */
export function eventWithSessions({
  sessions = 2,
  hours = 4,
  startedHoursAgo = 72,
}: { sessions?: number; hours?: number; startedHoursAgo?: number } = {}): EventPayload<'event.changed'> {
  const first = Date.now() - startedHoursAgo * HOUR_MS;
  const list = Array.from({ length: sessions }, (_, index) => ({
    id: randomUUID(),
    startsAt: new Date(first + index * 24 * HOUR_MS).toISOString(),
    endsAt: new Date(first + index * 24 * HOUR_MS + hours * HOUR_MS).toISOString(),
    title: `Dia ${index + 1}`,
  }));
  return {
    eventId: randomUUID(),
    title: 'Congresso de Farmácia Clínica',
    date: list[0]!.startsAt,
    location: 'São Paulo – SP',
    price: '350.00',
    isActive: true,
    listed: true,
    maxAttendees: 500,
    sessions: list,
  };
}

/** A ticket of the event for `name`, as tickets announces it. */
export function ticketOf(event: EventPayload<'event.changed'>, name: string): EventPayload<'ticket.issued'> {
  return {
    ticketId: randomUUID(),
    orderId: randomUUID(),
    orderNumber: `PED-${Math.floor(Math.random() * 1e8)}`,
    userId: randomUUID(),
    eventId: event.eventId,
    qrText: 'v1.test',
    qrCodeData: 'data:image/png;base64,iVBORw0KGgo=',
    buyer: { name, email: `${name.split(' ')[0]!.toLowerCase()}.${randomUUID().slice(0, 6)}@example.com.br` },
    event: { title: event.title, date: event.date, location: event.location },
  };
}

/** An admission of the ticket to a session, as the door announces it. */
export const checkIn = (ticket: EventPayload<'ticket.issued'>, sessionId: string) => ({
  ticketId: ticket.ticketId,
  orderId: ticket.orderId,
  eventId: ticket.eventId,
  sessionId,
  usedAt: new Date().toISOString(),
  scannedBy: randomUUID(),
});

/** The refund of the ticket's order, as orders announces it. */
export function refundOf(
  ticket: EventPayload<'ticket.issued'>,
  reason: EventPayload<'order.refunded'>['reason'] = 'refund',
): EventPayload<'order.refunded'> {
  const { orderId, orderNumber, userId, eventId, buyer, event } = ticket;
  return { orderId, orderNumber, userId, eventId, reason, amount: '350.00', buyer, event };
}

/** A signature as an administrator uploads it: a pen stroke on white, as a PNG data URL. */
export function signaturePng(): string {
  const png = new PNG({ width: 120, height: 40 });
  png.data.fill(255);
  for (let x = 10; x < 110; x++) {
    const y = 20 + Math.round(8 * Math.sin(x / 9));
    png.data.set([20, 20, 80, 255], (y * 120 + x) * 4);
  }
  return `data:image/png;base64,${PNG.sync.write(png).toString('base64')}`;
}

/** What a PDF says: its text, and the text of every QR code drawn in it, read back as a phone would. */
export async function readPdf(bytes: Buffer): Promise<{ text: string; qrTexts: string[] }> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const loading = pdfjs.getDocument({
    data: new Uint8Array(bytes),
    isOffscreenCanvasSupported: false,
    isImageDecoderSupported: false,
    standardFontDataUrl: join(
      dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')),
      'standard_fonts/',
    ),
  });
  const document = await loading.promise;
  let text = '';
  const qrTexts: string[] = [];
  for (let number = 1; number <= document.numPages; number++) {
    const page = await document.getPage(number);
    const content = await page.getTextContent();
    text += content.items.map((item) => ('str' in item ? item.str : '')).join(' ');
    const operators = await page.getOperatorList();
    for (const [index, op] of operators.fnArray.entries()) {
      if (op !== pdfjs.OPS.paintImageXObject) continue;
      const name = operators.argsArray[index]![0] as string;
      const image = page.objs.get(name) as { width: number; height: number; kind: number; data: Uint8ClampedArray };
      const found = readQrCode(asPng(image));
      if (found) qrTexts.push(found);
    }
  }
  await loading.destroy();
  return { text: text.replace(/\s+/g, ' '), qrTexts };
}

/** A decoded PDF image (1-bit grey, RGB or RGBA rows) as a PNG. */
function asPng({
  width,
  height,
  kind,
  data,
}: {
  width: number;
  height: number;
  kind: number;
  data: Uint8ClampedArray;
}) {
  const png = new PNG({ width, height });
  const rowBytes = Math.ceil(width / 8);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = (y * width + x) * 4;
      let grey: number[];
      if (kind === 1) {
        const bit = (data[y * rowBytes + (x >> 3)]! >> (7 - (x & 7))) & 1;
        grey = bit ? [255, 255, 255] : [0, 0, 0];
      } else {
        const from = (y * width + x) * (kind === 2 ? 3 : 4);
        grey = [data[from]!, data[from + 1]!, data[from + 2]!];
      }
      png.data.set([...grey, 255], at);
    }
  }
  return PNG.sync.write(png);
}

export { waitFor };
