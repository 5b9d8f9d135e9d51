import { openDB, unwrap, type DBSchema, type IDBPDatabase, type IDBPTransaction, type StoreNames } from 'idb';
import { parseQrText, type DoorConflict, type DoorTicket, type ScanCode, type TicketClaims } from '@ticketing/proto';
import { DOOR_DATA_DB, UNSYNCED_READINGS_DB } from '@ticketing/shared';
import { keptEvents } from './device.ts';
import { sessionAt } from './door-session.ts';

/**
 * The door's data on this device, in two databases: what belongs to the person signed in (keys, ticket lists, last
 * readings, conflicts), forgotten on sign-out and after the event; and the readings the server has not recorded
 * yet, which no sign-out deletes (see `UNSYNCED_READINGS_DB`). No QR text is kept: it would get a person in.
 */

/** A reading as the device shows it in 'Últimas leituras'. */
export interface StoredReading {
  readingId: string;
  /** '' when the door checked every event in. */
  eventId: string;
  /** The session it was for; undefined when the door checked every event in, or before events had sessions. */
  sessionId?: string | null;
  /** ISO time the camera read it. */
  readAt: string;
  admitted: boolean;
  code: ScanCode;
  holder: string | null;
  message: string;
  ticketId: string | null;
  orderId: string | null;
}

/**
 * A reading the server has not recorded yet; it leaves the queue only once the server answers for it. Only what the
 * server needs: no names.
 */
export interface QueuedReading {
  readingId: string;
  eventId: string;
  /**
   * The session the door was set to; null for a reading queued before events had sessions whose event the device no
   * longer lists (the server then places it in the session whose door was open when it was read).
   */
  sessionId: string | null;
  /** What the QR code says, its signature checked here; null for a code that was no ticket of ours. */
  claims: TicketClaims | null;
  readAt: string;
  /** Also makes the ticket used in its session on this device while queued. */
  admitted: boolean;
}

/** The readings 'Últimas leituras' shows, and all the device keeps of those the server has recorded. */
export const KEPT_READINGS = 10;

interface DoorDb extends DBSchema {
  /** Public keys that verify QR codes, by key id: raw Ed25519 keys in base64url. */
  keys: { key: string; value: { kid: string; x: string } };
  tickets: { key: string; value: DoorTicket & { eventId: string }; indexes: { byEvent: string } };
  /** Per event: the revision of the last ticket list received. */
  revisions: { key: string; value: { eventId: string; revision: string } };
  readings: { key: string; value: StoredReading; indexes: { byReadAt: string } };
  /** By ticket and session: a ticket admitted twice offline in two sessions is two conflicts. */
  conflicts: { key: [string, string]; value: DoorConflict & { eventId: string } };
}

interface QueueDb extends DBSchema {
  queue: { key: string; value: QueuedReading; indexes: { byEvent: string; byTicket: string } };
}

/** The door's data before the queue was kept apart: one database, QR texts in the queue and in the readings. */
interface FirstQueuedReading {
  readingId: string;
  eventId: string;
  qrCodeData: string;
  readAt: string;
  admitted: boolean;
}

/** A ticket and a conflict as the door kept them before events had sessions: one admission per ticket. */
type UnsessionedTicket = Omit<DoorTicket, 'admissions'> & { eventId: string; usedAt: string | null };
type UnsessionedConflict = Omit<DoorConflict, 'sessionId'> & { eventId: string };

let opened: Promise<IDBPDatabase<DoorDb>> | undefined;
let openedQueue: Promise<IDBPDatabase<QueueDb>> | undefined;

/** The person's data: survives reloads, closed tabs and the network; lets go when a sign-out deletes it. */
export function doorDb(): Promise<IDBPDatabase<DoorDb>> {
  opened ??= openDB<DoorDb>(DOOR_DATA_DB, 3, {
    async upgrade(db, oldVersion, _newVersion, tx) {
      if (oldVersion === 0) {
        db.createObjectStore('keys', { keyPath: 'kid' });
        db.createObjectStore('tickets', { keyPath: 'id' }).createIndex('byEvent', 'eventId');
        db.createObjectStore('revisions', { keyPath: 'eventId' });
        db.createObjectStore('readings', { keyPath: 'readingId' }).createIndex('byReadAt', 'readAt');
        db.createObjectStore('conflicts', { keyPath: ['ticketId', 'sessionId'] });
        return;
      }
      if (oldVersion === 1) await admitPerSession(db, tx);
      await typeTickets(tx);
    },
    // A sign-out deletes this database: the connection lets go at once, and the next use opens a new one.
    blocking() {
      void opened?.then((db) => db.close());
      opened = undefined;
    },
  });
  return opened;
}

/**
 * The first version kept one admission per ticket. Events of then have one session, which carries the event's id
 * (`sessionsOrWhole`): each admission and conflict becomes that session's. The revisions go, so the next refresh
 * downloads whole lists, with each session's admissions as the server knows them.
 */
async function admitPerSession(
  db: IDBPDatabase<DoorDb>,
  tx: IDBPTransaction<DoorDb, StoreNames<DoorDb>[], 'versionchange'>,
) {
  const conflicts = (await tx.objectStore('conflicts').getAll()) as unknown as UnsessionedConflict[];
  db.deleteObjectStore('conflicts');
  const conflictStore = db.createObjectStore('conflicts', { keyPath: ['ticketId', 'sessionId'] });
  await Promise.all(conflicts.map((conflict) => conflictStore.put({ ...conflict, sessionId: conflict.eventId })));
  await tx.objectStore('revisions').clear();
  let cursor = await tx.objectStore('tickets').openCursor();
  while (cursor) {
    const { usedAt, ...ticket } = cursor.value as unknown as UnsessionedTicket;
    await cursor.update({ ...ticket, admissions: usedAt ? { [ticket.eventId]: usedAt } : {} });
    cursor = await cursor.continue();
  }
}

/**
 * Tickets kept before they had types have none until the server says: the revisions go, so the next refresh
 * downloads whole lists, each ticket with its type (and whether the door checks a document).
 */
async function typeTickets(tx: IDBPTransaction<DoorDb, StoreNames<DoorDb>[], 'versionchange'>) {
  await tx.objectStore('revisions').clear();
  let cursor = await tx.objectStore('tickets').openCursor();
  while (cursor) {
    const ticket = cursor.value as Omit<DoorTicket, 'ticketType'> & {
      eventId: string;
      ticketType?: DoorTicket['ticketType'];
    };
    if (ticket.ticketType === undefined) await cursor.update({ ...ticket, ticketType: null });
    cursor = await cursor.continue();
  }
}

/**
 * The readings not recorded by the server yet. The first version of this database held all of the door: its
 * queue is kept, each QR text replaced by its claims (checked when the door read it), and the rest dropped.
 */
export function queueDb(): Promise<IDBPDatabase<QueueDb>> {
  openedQueue ??= openDB<QueueDb>(UNSYNCED_READINGS_DB, 3, {
    async upgrade(db, oldVersion, _newVersion, tx) {
      if (oldVersion === 0) {
        const queue = db.createObjectStore('queue', { keyPath: 'readingId' });
        queue.createIndex('byEvent', 'eventId');
        queue.createIndex('byTicket', 'claims.ticketId');
        return;
      }
      const queue = tx.objectStore('queue');
      if (oldVersion === 1) {
        // The first version's other stores are not in this schema: dropped through the database itself.
        const first = unwrap(db);
        for (const name of Array.from(first.objectStoreNames)) if (name !== 'queue') first.deleteObjectStore(name);
        queue.deleteIndex('byTicket');
        queue.createIndex('byTicket', 'claims.ticketId');
      }
      // Readings queued before events had sessions: each is for the session whose door was open when it was read.
      const events = keptEvents() ?? [];
      let cursor = await queue.openCursor();
      while (cursor) {
        const { readingId, eventId, readAt, admitted, ...kept } = cursor.value as QueuedReading & FirstQueuedReading;
        const claims = oldVersion === 1 ? (parseQrText(kept.qrCodeData)?.claims ?? null) : kept.claims;
        const sessionId = sessionAt(events, eventId, readAt);
        await cursor.update({ readingId, eventId, sessionId, claims, readAt, admitted });
        cursor = await cursor.continue();
      }
    },
    blocking() {
      void openedQueue?.then((db) => db.close());
      openedQueue = undefined;
    },
  });
  return openedQueue;
}

/** The last `count` readings of this device, newest first. */
export async function lastReadings(count: number): Promise<StoredReading[]> {
  const db = await doorDb();
  const found: StoredReading[] = [];
  let cursor = await db.transaction('readings').store.index('byReadAt').openCursor(null, 'prev');
  while (cursor && found.length < count) {
    found.push(cursor.value);
    cursor = await cursor.continue();
  }
  return found;
}

/** Marks a ticket admitted to a session on this device's list, until the server's list says otherwise (a reset). */
export async function markUsed(ticketId: string, sessionId: string, at: string): Promise<void> {
  const db = await doorDb();
  const ticket = await db.get('tickets', ticketId);
  if (ticket && !ticket.admissions[sessionId])
    await db.put('tickets', { ...ticket, admissions: { ...ticket.admissions, [sessionId]: at } });
}
