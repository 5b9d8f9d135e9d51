import { z } from 'zod';
import { searchText, uuidParam } from './params.ts';
import { QR_TEXT_MAX_LENGTH } from '../door/qr-text.ts';
import { scanMessages } from '../scan-messages.ts';
import type { ScanCode, TicketHolder } from './tickets.ts';
import type { EventSession } from '../door/sessions.ts';

/**
 * The door's contract beyond a single reading: the events a door checks in, the ticket list a scanner keeps to
 * decide offline, the readings it sends back after a network drop, live arrival counts and the manual look-up.
 */

/** pt-BR texts of the door's inputs. */
export const doorMessages = {
  deviceInvalid: 'Identificador do dispositivo inválido',
  readingsInvalid: 'Leituras inválidas',
  readingsTooMany: 'Envie no máximo 500 leituras por vez',
  readAtInvalid: 'Horário da leitura inválido',
  searchTooShort: 'Digite ao menos 3 caracteres para buscar',
  searchTooLong: 'Busca longa demais',
  afterInvalid: 'Revisão inválida',
  eventRequired: 'Escolha o evento desta entrada antes de ler ingressos',
  eventNotAssigned: 'Você não está escalado para a portaria deste evento',
  ticketNotInEvent: 'Ingresso não encontrado neste evento',
  sessionInvalid: 'Identificador da sessão inválido',
  sessionNotInEvent: 'Sessão não encontrada neste evento',
  tooManySearches: 'Muitas buscas seguidas. Aguarde alguns segundos e tente novamente.',
  tooManyReadings: 'Muitas leituras seguidas. Aguarde alguns segundos e tente novamente.',
  liveEnded: 'O painel foi fechado: sua sessão terminou ou você não está mais escalado para este evento.',
  tooManyStreams: 'Há painéis ao vivo demais abertos nesta conta. Feche um deles e tente de novo.',
} as const;

/**
 * A scanner device: a random id it keeps in its own storage, so per-device counts and offline conflicts name it.
 */
export const deviceId = z.string({ error: doorMessages.deviceInvalid }).regex(/^[A-Za-z0-9_-]{8,64}$/, {
  error: doorMessages.deviceInvalid,
});

/** `GET /api/door/events` (catalog; door staff and admins): today's events first, then upcoming ones. */
export interface DoorEventView {
  id: string;
  title: string;
  date: string;
  location: string;
  listed: boolean;
  /** Happens today in São Paulo, whether it has started or not. */
  today: boolean;
  /** Its sessions by start, each admitting a ticket once: the scanner defaults to the one whose door is open. */
  sessions: EventSession[];
}

/** A session a door request names; without it, the session whose door is open (`defaultSession`). */
export const sessionIdInput = z.uuid({ error: doorMessages.sessionInvalid });

/** When a ticket was admitted to each session it was admitted to: session id → ISO time. */
export type SessionAdmissions = Record<string, string>;

/** One ticket as a scanner keeps it to decide offline: no personal data beyond the name shown at the door. */
export interface DoorTicket {
  id: string;
  orderId: string;
  /** The QR version that admits it (a reissued ticket's older QR codes are refused). */
  version: number;
  holderName: string;
  /** The type's name, and whether the door checks a document; null on tickets issued before types existed. */
  ticketType: { name: string; requiresDocument: boolean } | null;
  status: 'valid' | 'cancelled';
  admissions: SessionAdmissions;
}

/** A ticket admitted to one session offline on two devices: the server kept the first admission. */
export interface DoorConflict {
  ticketId: string;
  sessionId: string;
  holderName: string;
  /** Both admissions, the kept one first. */
  admissions: { deviceId: string; at: string }[];
}

/**
 * `GET /api/door/events/:eventId/tickets?after=<revision>&deviceId=`: the event's tickets changed after `after`
 * (all of them without it), the revision to ask after next time, and the conflicts this device took part in.
 */
export interface DoorTicketsView {
  eventId: string;
  revision: string;
  tickets: DoorTicket[];
  conflicts: DoorConflict[];
}

export const doorTicketsQuery = z.object({
  after: z
    .string({ error: doorMessages.afterInvalid })
    .regex(/^\d{1,19}$/, { error: doorMessages.afterInvalid })
    .optional(),
  deviceId: deviceId.optional(),
});

/**
 * A reading the scanner decided by itself (offline, or before the server answered), sent once it can. The phone
 * keeps no QR text (a QR text gets a person in): it sends the claims of the QR code whose signature it checked (the
 * ticket, its event and its QR version); null for a code that was no ticket of ours.
 */
export const doorReading = z.object({
  /** Chosen by the device: a reading sent twice (a retry after a lost answer) is recorded once. */
  readingId: z.uuid({ error: doorMessages.readingsInvalid }),
  claims: z
    .object(
      {
        ticketId: z.uuid({ error: doorMessages.readingsInvalid }),
        eventId: z.uuid({ error: doorMessages.readingsInvalid }),
        version: z
          .int({ error: doorMessages.readingsInvalid })
          .min(1, doorMessages.readingsInvalid)
          .max(255, doorMessages.readingsInvalid),
      },
      { error: doorMessages.readingsInvalid },
    )
    .nullable(),
  readAt: z.iso.datetime({ offset: true, error: doorMessages.readAtInvalid }),
  /** What the door did: a holder let in offline is an admission the server must record, or report as a conflict. */
  admitted: z.boolean({ error: doorMessages.readingsInvalid }),
});

/**
 * `POST /api/door/readings`: a device's queued readings for one event and session (without `sessionId`, each
 * reading's session is the one whose door was open when it was read).
 */
export const doorReadingsInput = z.object(
  {
    deviceId,
    eventId: z.uuid({ error: 'Identificador do evento inválido' }),
    sessionId: sessionIdInput.optional(),
    readings: z
      .array(doorReading, { error: doorMessages.readingsInvalid })
      .min(1, doorMessages.readingsInvalid)
      .max(500, doorMessages.readingsTooMany),
  },
  { error: doorMessages.readingsInvalid },
);

export type DoorReading = z.infer<typeof doorReading>;

/** How the server recorded one queued reading. */
export interface DoorReadingResult {
  readingId: string;
  /** `recorded`: as the door decided; `conflict`: admitted here and on another device. */
  outcome: 'recorded' | 'conflict';
  code: ScanCode;
  ticketId: string | null;
  conflict?: DoorConflict;
}

export interface DoorReadingsView {
  results: DoorReadingResult[];
}

/**
 * `GET /api/door/events/:eventId/live?sessionId=` (Server-Sent Events, `event: counts`) and `GET .../counts?sessionId=`
 * (JSON): how the door of one session is going (without `sessionId`, the session whose door is open).
 */
export interface DoorCountsView {
  eventId: string;
  sessionId: string;
  /** Valid tickets admitted to this session. */
  admitted: number;
  /** Valid tickets of the event. */
  expected: number;
  /** Admissions to this session per minute over the last 30 minutes, oldest first; `minute` is its start (ISO). */
  perMinute: { minute: string; count: number }[];
  /** Admissions to this session per device, most first. */
  devices: { deviceId: string; staffName: string; admitted: number }[];
  /** Valid tickets admitted to each session of the event, in the order of the sessions. */
  sessions: { sessionId: string; admitted: number }[];
  at: string;
}

/** The session a door view (counts, live panel, look-up) follows. */
export const doorSessionQuery = z.object({ sessionId: sessionIdInput.optional() });

/**
 * `GET /api/door/events/:eventId/search?q=`: by the words of a name, or a whole CPF (11 digits, with or without the
 * mask), a whole e-mail or a whole order code; never by a part of a CPF or e-mail.
 */
export const doorSearchQuery = doorSessionQuery.extend({
  q: searchText({ invalid: doorMessages.searchTooShort, tooLong: doorMessages.searchTooLong }).min(
    3,
    doorMessages.searchTooShort,
  ),
});

/** A guest the look-up found; the e-mail masked too (`m***@gmail.com`). */
export interface DoorSearchHit extends TicketHolder {
  /** When admitted to the session looked up for; null while not. */
  usedAt: string | null;
}

/**
 * `POST /api/door/events/:eventId/tickets/:ticketId/admit`: admits a guest found by the look-up, recorded and
 * answered (`ScanView`) as a reading of their QR code at this door.
 */
export const doorAdmitInput = z.object(
  { deviceId: deviceId.optional(), sessionId: sessionIdInput.optional() },
  { error: doorMessages.readingsInvalid },
);

export interface DoorSearchView {
  tickets: DoorSearchHit[];
}

/** pt-BR texts of a reading's and a reset's inputs. */
export const readingInputMessages = {
  qrRequired: 'Informe o conteúdo do QR Code (qrCodeData)',
  qrTooLong: 'QR Code inválido: conteúdo grande demais',
  eventIdInvalid: 'Identificador do evento inválido',
  ticketIdInvalid: 'Identificador do ingresso inválido',
  scanBodyInvalid: 'Dados da leitura inválidos',
} as const;

/**
 * `POST /api/verify-ticket`: the text of the QR code and, optionally, the event the door checks in and the device
 * that read it.
 */
export const verifyTicketInput = z.object(
  {
    qrCodeData: z
      .string({ error: readingInputMessages.qrRequired })
      .trim()
      .min(1, readingInputMessages.qrRequired)
      .max(QR_TEXT_MAX_LENGTH, readingInputMessages.qrTooLong),
    eventId: z.uuid({ error: readingInputMessages.eventIdInvalid }).optional(),
    /** The session of that event; without it, the one whose door is open. */
    sessionId: sessionIdInput.optional(),
    deviceId: deviceId.optional(),
  },
  { error: readingInputMessages.scanBodyInvalid },
);

/** An event named in a door path. */
export const doorEventIdParam = z.uuid({ error: readingInputMessages.eventIdInvalid });

/** A ticket named in a door path. */
export const doorTicketIdParam = z.uuid({ error: readingInputMessages.ticketIdInvalid });

/** The door paths that name an event, and a ticket of it. */
export const doorEventParams = z.object({ eventId: doorEventIdParam });
export const doorTicketParams = doorEventParams.extend({ ticketId: doorTicketIdParam });

/** `POST /api/reset-ticket/:orderId`: the order whose ticket an administrator lets through once more. */
export const resetTicketParams = z.object({ orderId: uuidParam(scanMessages.notFound) });

/**
 * The session whose admission to undo (without it, every session's), and which ticket of the order (without it, its
 * first: orders of one ticket need not say).
 */
export const resetTicketInput = z.object(
  {
    sessionId: sessionIdInput.optional(),
    ticketId: z.uuid({ error: readingInputMessages.ticketIdInvalid }).optional(),
  },
  { error: readingInputMessages.scanBodyInvalid },
);
