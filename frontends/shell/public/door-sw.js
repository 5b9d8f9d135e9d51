/*
 * The door's service worker (scope /verificar): the scanner starts without a network. The door's page and the few
 * answers it needs to start (who is logged in, the door's events) are fetched from the network first and kept;
 * without a network (or with the server failing) the kept copy answers. The door's code files are named by their
 * content, so a kept one is used as it is. No other API call is kept, and of who is logged in only the name and
 * roles: a phone passed from hand to hand keeps no one's CPF, phone, address or birth date. A sign-out deletes it all.
 */
const CACHE = 'porta-v1';
const PROFILE = '/api/auth/me';
/** A build file named by its content hash (`181.0deb0f5841.js`): the same name is always the same bytes. */
const HASHED_FILE = /\.[0-9a-f]{10}\.(js|css)$/;
const KEPT_API = [PROFILE, '/api/door/events'];

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(deleteOlderCaches().then(() => self.clients.claim())));

/** What an older release of this worker kept under another name would otherwise stay on the phone for good. */
async function deleteOlderCaches() {
  const older = (await caches.keys()).filter((name) => name.startsWith('porta-') && name !== CACHE);
  await Promise.all(older.map((name) => caches.delete(name)));
}

function isKept(request) {
  if (request.method !== 'GET') return false;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return false;
  return url.pathname.startsWith('/api/') ? KEPT_API.includes(url.pathname) : true;
}

/** A network that neither answers nor fails (a door's weak Wi-Fi) is given this long before the kept copy answers. */
const NETWORK_WAIT_MS = 3000;

const timeout = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Replaces the kept copy only once the whole new answer has arrived: an answer cut off mid-body (the server stopping,
 * the Wi-Fi dropping) must not cost the door the copy it would start from.
 */
async function keepWhole(cache, request, response) {
  const body = new URL(request.url).pathname === PROFILE ? await doorProfile(response) : await response.arrayBuffer();
  const { status, statusText } = response;
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  await cache.put(request, new Response(body, { status, statusText, headers }));
}

/** What the door needs of who is logged in: whose data the phone holds, a name to show and the roles that open it. */
async function doorProfile(response) {
  const { id, name, roles, isAdmin } = await response.json();
  return JSON.stringify({ id, name, roles, isAdmin });
}

async function respond(event) {
  const cache = await caches.open(CACHE);
  const kept = () => cache.match(event.request, { ignoreVary: true });
  // A phone that knows it is offline, or a file that never changes, is answered at once from what was kept: a start
  // without network must not wait on every file of the door in turn.
  if (self.navigator.onLine === false || HASHED_FILE.test(new URL(event.request.url).pathname)) {
    const answer = await kept();
    if (answer) return answer;
  }
  const fromNetwork = fetch(event.request).then((response) => {
    if (response.ok) event.waitUntil(keepWhole(cache, event.request, response.clone()).catch(() => {}));
    return response;
  });
  try {
    const response = await Promise.race([fromNetwork, timeout(NETWORK_WAIT_MS)]);
    // A server that fails (a service down behind the gateway) is no better than no network.
    if (response && response.status < 500) return response;
    return (await kept()) ?? response ?? (await fromNetwork);
  } catch (error) {
    const answer = await kept();
    if (answer) return answer;
    throw error;
  }
}

self.addEventListener('fetch', (event) => {
  if (isKept(event.request)) event.respondWith(respond(event));
});

// The page names the files it loaded before this worker controlled it, so they are kept too; it is told how many
// could not be, so it says the door is ready to start offline only once they all are.
self.addEventListener('message', (event) => {
  if (event.data?.type !== 'keep') return;
  const keeping = caches
    .open(CACHE)
    .then((cache) =>
      // A file kept already counts (a reload without network fetched it from here); the others are fetched now.
      Promise.all(
        event.data.urls.map(async (url) => {
          if (await cache.match(url)) return 0;
          return cache.add(url).then(
            () => 0,
            () => 1,
          );
        }),
      ),
    )
    .then((failures) => event.ports[0]?.postMessage({ missing: failures.reduce((sum, failed) => sum + failed, 0) }));
  event.waitUntil(keeping);
});
