import http from 'node:http';
import { uniqueName, waitFor } from '@ticketing/testkit';
import type { RunningGateway } from '../src/gateway.ts';
import { deleteRedisKeys, startFakeService, startGateway, type FakeService } from './support.ts';

const prefix = `${uniqueName('gateway_events')}:`;
const eventId = '3f1c2a9e-8b7d-4c6e-9a5f-1e2d3c4b5a69';
let verifier: FakeService;
let gateway: RunningGateway;

beforeAll(async () => {
  verifier = await startFakeService('tickets-verifier');
  // A short timeout, so the stream's silences outlast it.
  gateway = await startGateway({ TICKETS_VERIFIER_URL: verifier.url, REDIS_PREFIX: prefix, PROXY_TIMEOUT_MS: '300' });
});
afterAll(async () => {
  await gateway?.close();
  await verifier?.stop();
  await deleteRedisKeys(prefix);
});

/** Opens the door's live counts through the gateway, as a browser accepting compressed answers would. */
function openLiveCounts(testId: string): Promise<http.IncomingMessage> {
  const { hostname, port } = new URL(gateway.url);
  const headers = {
    accept: 'text/event-stream',
    'accept-encoding': 'gzip, deflate, br',
    'x-echo-events': '1',
    'x-test-id': testId,
  };
  return new Promise((resolve, reject) => {
    const path = `/api/door/events/${eventId}/live`;
    http.get({ hostname, port, path, headers, agent: false }, resolve).on('error', reject);
  });
}

test('live counts stream through the gateway as they are sent, past the proxy timeout, until the client leaves', async () => {
  const stream = await openLiveCounts('live');
  expect(stream.statusCode).toBe(200);
  expect(stream.headers['content-type']).toBe('text/event-stream');
  expect(stream.headers['content-encoding']).toBeUndefined();
  let received = '';
  stream.on('data', (chunk: Buffer) => (received += chunk.toString()));
  stream.on('error', () => {});
  await waitFor(() => received.startsWith('data: primeiro evento'));
  const [upstream] = verifier.eventStreams;

  for (const admitted of [1, 2, 3]) {
    // An ordinary call through the same gateway still times out; the stream has been silent at least that long.
    const ordinary = await fetch(`${gateway.url}/api/door/events/${eventId}/counts`, {
      headers: { 'x-echo-hang': '1', 'x-test-id': `counts-${admitted}` },
    });
    expect(ordinary.status).toBe(502);
    const event = `event: counts\ndata: {"eventId":"${eventId}","admitted":${admitted}}\n\n`;
    upstream!.write(event);
    // Each event arrives whole, in plain text, before the next one is sent.
    await waitFor(() => received.endsWith(event));
  }
  expect(verifier.abandoned).not.toContain('live');

  // The door closes the page: the gateway ends its request to the service.
  stream.destroy();
  await waitFor(() => verifier.abandoned.includes('live'));
});
