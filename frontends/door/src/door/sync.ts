import type { DoorConflict, DoorReadingResult } from '@ticketing/proto';
import { doorDb, markUsed, queueDb, type QueuedReading } from './db.ts';
import { fetchKeys, fetchTickets, sendReadings, type Reached } from './server.ts';

/** While online, the ticket list is refreshed this often; while not, the server is tried again this often. */
const REFRESH_MS = 5000;
const RETRY_MS = 3000;
/** Readings per POST /api/door/readings (the server takes up to 500). */
const BATCH = 200;

export interface DoorStatus {
  /** The device's store has been read once: until then the counts below mean nothing yet. */
  loaded: boolean;
  /** The server answered the last call; false after a network failure, a 5xx or no answer in time. */
  online: boolean;
  /** The server refused the session (401): the door keeps deciding by itself until a new login. */
  expired: boolean;
  /** An event is chosen and its ticket list is on the device: readings are decided here without a network. */
  ready: boolean;
  /** Readings the server has not recorded yet. */
  queued: number;
  conflicts: DoorConflict[];
  /** Changes whenever a reading is recorded on the device, so the readings list reloads. */
  readings: number;
}

const sameStatus = (a: DoorStatus, b: DoorStatus) =>
  a.loaded === b.loaded &&
  a.online === b.online &&
  a.expired === b.expired &&
  a.ready === b.ready &&
  a.queued === b.queued &&
  a.readings === b.readings &&
  JSON.stringify(a.conflicts) === JSON.stringify(b.conflicts);

/**
 * Keeps the device's copy of the door in step with the server for one event (or none, for every event): downloads
 * the keys and the ticket list, refreshes the list, sends the queued readings, and notices by itself when the
 * server is back. Every reading stays queued until the server has answered for it.
 */
export class DoorSync {
  private status: DoorStatus = {
    // A phone that knows it has no network decides its first reading by itself at once.
    loaded: false,
    online: globalThis.navigator?.onLine ?? true,
    expired: false,
    ready: false,
    queued: 0,
    conflicts: [],
    readings: 0,
  };
  private readonly listeners = new Set<() => void>();
  private timer: number | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;
  /** Keys are asked for once per start: they change only when the service rotates them. */
  private keysLoaded = false;

  private readonly eventId: string | undefined;

  constructor(eventId: string | undefined) {
    this.eventId = eventId;
  }

  readonly subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly snapshot = () => this.status;

  /** Whether a reading should wait for the server's verdict at all. */
  get reachable() {
    return this.status.online && !this.status.expired;
  }

  start() {
    this.stopped = false;
    window.addEventListener('online', this.soon);
    window.addEventListener('offline', this.wentOffline);
    void this.load().then(this.soon);
  }

  stop() {
    this.stopped = true;
    window.clearTimeout(this.timer);
    window.removeEventListener('online', this.soon);
    window.removeEventListener('offline', this.wentOffline);
  }

  /** The phone says it lost its network: readings are decided here at once, without trying the server first. */
  private readonly wentOffline = () => this.noticeFailure('unreachable');

  /** A door call failed: offline (or session refused) until the next tick reaches the server. */
  noticeFailure(why: 'unreachable' | 'expired') {
    this.update(why === 'expired' ? { expired: true } : { online: false });
  }

  /** A reading is on the device (queued or not): the counts and lists follow. */
  async recorded() {
    await this.load(true);
    if (!this.reachable) return;
    this.soon();
  }

  /** Runs a sync now (and then on the usual schedule), unless one is running. */
  private readonly soon = () => {
    if (this.stopped) return;
    window.clearTimeout(this.timer);
    this.running ??= this.tick().finally(() => {
      this.running = undefined;
      if (!this.stopped) this.timer = window.setTimeout(this.soon, this.reachable ? REFRESH_MS : RETRY_MS);
    });
  };

  /** Tells the page only when something changed: a sync round every few seconds must not redraw the scanner. */
  private update(change: Partial<DoorStatus>) {
    const next = { ...this.status, ...change };
    if (sameStatus(this.status, next)) return;
    this.status = next;
    for (const listener of this.listeners) listener();
  }

  /** Reads the counts and conflicts from the device; `recorded` when a reading was just stored there. */
  private async load(recorded = false) {
    const db = await doorDb();
    const conflicts = this.eventId
      ? (await db.getAll('conflicts')).filter((conflict) => conflict.eventId === this.eventId)
      : [];
    const ready = this.eventId ? (await db.get('revisions', this.eventId)) !== undefined : false;
    const queued = await (await queueDb()).count('queue');
    this.update({ loaded: true, queued, conflicts, ready, readings: this.status.readings + (recorded ? 1 : 0) });
  }

  /** Whether a call reached the server; failures set the status, success clears it. */
  private reached<T>(answer: Reached<T>): answer is { ok: true; value: T } {
    if (answer.ok) {
      if (!this.status.online || this.status.expired) this.update({ online: true, expired: false });
      return true;
    }
    if (answer.why !== 'refused') this.noticeFailure(answer.why);
    return false;
  }

  private async tick() {
    if (!(await this.flush())) return;
    if (this.eventId) await this.refresh(this.eventId);
    // With every event (no list to refresh), the public keys tell whether the server is back.
    else if (!this.reachable) this.reached(await fetchKeys());
    await this.load();
  }

  /**
   * Sends every queued reading, by event and session and batch by batch; false when the server could not be
   * reached.
   */
  private async flush(): Promise<boolean> {
    const queue = await (await queueDb()).getAll('queue');
    const byPlace = new Map<string, QueuedReading[]>();
    for (const reading of queue) {
      const place = `${reading.eventId} ${reading.sessionId ?? ''}`;
      const readings = byPlace.get(place);
      if (readings) readings.push(reading);
      else byPlace.set(place, [reading]);
    }
    for (const readings of byPlace.values()) {
      const { eventId, sessionId } = readings[0]!;
      for (let start = 0; start < readings.length; start += BATCH) {
        const batch = readings.slice(start, start + BATCH);
        const answer = await sendReadings(
          eventId,
          sessionId,
          batch.map(({ readingId, claims, readAt, admitted }) => ({ readingId, claims, readAt, admitted })),
        );
        if (!this.reached(answer)) return answer.why === 'refused';
        await this.settle(eventId, batch, answer.value.results);
      }
    }
    if (queue.length > 0) await this.load();
    return true;
  }

  /** The server recorded these readings: they leave the queue, and conflicts it reports are kept to show. */
  private async settle(eventId: string, batch: QueuedReading[], results: DoorReadingResult[]) {
    const [db, queue] = await Promise.all([doorDb(), queueDb()]);
    const sent = new Map(batch.map((reading) => [reading.readingId, reading]));
    for (const result of results) {
      const reading = sent.get(result.readingId);
      if (!reading) continue;
      // A reading queued without its session: the conflict names the one the server placed it in.
      const sessionId = reading.sessionId ?? result.conflict?.sessionId;
      if (reading.admitted && result.ticketId && sessionId) await markUsed(result.ticketId, sessionId, reading.readAt);
      if (result.conflict) await db.put('conflicts', { ...result.conflict, eventId });
      await queue.delete('queue', result.readingId);
    }
  }

  /** The keys, then the whole list the first time and what changed since the last revision afterwards. */
  private async refresh(eventId: string) {
    const db = await doorDb();
    const known = await db.get('revisions', eventId);
    if (!this.keysLoaded) {
      const keys = await fetchKeys();
      if (!this.reached(keys)) return;
      const tx = db.transaction('keys', 'readwrite');
      await Promise.all(keys.value.keys.map((key) => tx.store.put({ kid: key.kid, x: key.x })));
      await tx.done;
      this.keysLoaded = true;
    }
    const answer = await fetchTickets(eventId, known?.revision);
    if (!this.reached(answer)) return;
    const { tickets, conflicts, revision } = answer.value;
    const tx = db.transaction(['tickets', 'conflicts', 'revisions'], 'readwrite');
    await Promise.all([
      ...tickets.map((ticket) => tx.objectStore('tickets').put({ ...ticket, eventId })),
      ...conflicts.map((conflict) => tx.objectStore('conflicts').put({ ...conflict, eventId })),
      tx.objectStore('revisions').put({ eventId, revision }),
    ]);
    await tx.done;
  }
}
