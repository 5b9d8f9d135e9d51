/**
 * What the site keeps on a device for the person signed in, beyond the token: the door's offline data (its
 * IndexedDB, the door service worker's Cache Storage, its events in localStorage). A door phone passes from hand to
 * hand: signing out, or another account on the device, forgets all of it, so the next person finds nothing of the
 * previous one's.
 */

/**
 * The door's readings the server has not recorded yet: reading id, ticket claims, time, no names. A reading is
 * never lost, so they outlive a sign-out (a phone signed out offline) and are sent by the next door session here.
 * The name is the one the door's single database had before: upgrading it keeps the queue and drops the rest.
 */
export const UNSYNCED_READINGS_DB = 'porta';

/** The door's data of the person signed in: its keys, ticket lists, last readings and conflicts. */
export const DOOR_DATA_DB = 'porta-dados';

/** localStorage: the door's own keys. The device's id is the phone's, not a person's, and stays. */
export const doorKeys = {
  device: 'door.deviceId',
  event: 'door.eventId',
  /** The session chosen last, whichever its event. */
  session: 'door.sessionId',
  events: 'door.events',
} as const;

/** localStorage: the account whose data the device holds. */
const OWNER_KEY = 'deviceOwner';

const deleteDatabase = (name: string) =>
  new Promise<void>((resolve, reject) => {
    const request = indexedDB.deleteDatabase(name);
    request.onsuccess = () => resolve();
    request.onerror = () => reject(request.error ?? new Error(`IndexedDB ${name}`));
  });

/** The site's IndexedDB databases; where the browser can't list them (older Firefox), the door's by name. */
async function databaseNames(): Promise<string[]> {
  if (!('indexedDB' in globalThis)) return [];
  if (!('databases' in indexedDB)) return [DOOR_DATA_DB];
  return (await indexedDB.databases()).flatMap(({ name }) => (name ? [name] : []));
}

/** Deletes what the device holds for the person signed in: every database but the unsynced readings, every cache. */
export async function forgetDeviceData(): Promise<void> {
  localStorage.removeItem(doorKeys.event);
  localStorage.removeItem(doorKeys.session);
  localStorage.removeItem(doorKeys.events);
  const databases = await databaseNames();
  const cacheNames = 'caches' in globalThis ? await caches.keys() : [];
  await Promise.all([
    ...databases.filter((name) => name !== UNSYNCED_READINGS_DB).map(deleteDatabase),
    ...cacheNames.map((name) => caches.delete(name)),
  ]);
  // Last: should the page close midway, the next start finds an owner and no session, and forgets again.
  localStorage.removeItem(OWNER_KEY);
}

/**
 * The device is now `userId`'s: anything kept for another account is forgotten first. Resolves to whether something
 * was (a page that showed data kept before then asks for it again).
 */
export async function claimDevice(userId: string): Promise<boolean> {
  const owner = localStorage.getItem(OWNER_KEY);
  if (owner === userId) return false;
  await forgetDeviceData();
  localStorage.setItem(OWNER_KEY, userId);
  return true;
}

/** A start with nobody signed in: whatever a previous session left (a token that expired, a closed tab) goes. */
export async function forgetIfSignedOut(signedIn: boolean): Promise<void> {
  if (!signedIn && localStorage.getItem(OWNER_KEY) !== null) await forgetDeviceData();
}
