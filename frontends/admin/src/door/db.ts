import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { DoorConflict, DoorTicket, ScanCode } from '@ticketing/proto';

/** A reading as the device keeps it: shown in 'Últimas leituras', and the proof a ticket was used here. */
export interface StoredReading {
  readingId: string;
  /** '' when the door checked every event in. */
  eventId: string;
  qrCodeData: string;
  /** ISO time the camera read it. */
  readAt: string;
  admitted: boolean;
  code: ScanCode;
  holder: string | null;
  message: string;
  ticketId: string | null;
  orderId: string | null;
}

/** A reading the server has not recorded yet; it leaves the queue only once the server answers for it. */
export interface QueuedReading {
  readingId: string;
  eventId: string;
  qrCodeData: string;
  readAt: string;
  admitted: boolean;
  /** Kept on the device only: an admission still queued makes the ticket used here. */
  ticketId: string | null;
}

interface DoorDb extends DBSchema {
  /** Public keys that verify QR codes, by key id: raw Ed25519 keys in base64url. */
  keys: { key: string; value: { kid: string; x: string } };
  tickets: { key: string; value: DoorTicket & { eventId: string }; indexes: { byEvent: string } };
  /** Per event: the revision of the last ticket list received. */
  revisions: { key: string; value: { eventId: string; revision: string } };
  queue: { key: string; value: QueuedReading; indexes: { byEvent: string; byTicket: string } };
  readings: { key: string; value: StoredReading; indexes: { byReadAt: string } };
  conflicts: { key: string; value: DoorConflict & { eventId: string } };
}

let opened: Promise<IDBPDatabase<DoorDb>> | undefined;

/** The door's own database on this device: survives reloads, closed tabs and the network. */
export function doorDb(): Promise<IDBPDatabase<DoorDb>> {
  opened ??= openDB<DoorDb>('porta', 1, {
    upgrade(db) {
      db.createObjectStore('keys', { keyPath: 'kid' });
      db.createObjectStore('tickets', { keyPath: 'id' }).createIndex('byEvent', 'eventId');
      db.createObjectStore('revisions', { keyPath: 'eventId' });
      const queue = db.createObjectStore('queue', { keyPath: 'readingId' });
      queue.createIndex('byEvent', 'eventId');
      queue.createIndex('byTicket', 'ticketId');
      db.createObjectStore('readings', { keyPath: 'readingId' }).createIndex('byReadAt', 'readAt');
      db.createObjectStore('conflicts', { keyPath: 'ticketId' });
    },
  });
  return opened;
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

/** Marks a ticket used on this device's list, until the server's list says otherwise (a reset). */
export async function markUsed(ticketId: string, at: string): Promise<void> {
  const db = await doorDb();
  const ticket = await db.get('tickets', ticketId);
  if (ticket && !ticket.usedAt) await db.put('tickets', { ...ticket, usedAt: at });
}
