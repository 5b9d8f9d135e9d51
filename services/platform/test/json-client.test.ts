import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { captureLogs, testKeyRing } from '@ticketing/testkit';
import { chargeStatusViewSchema } from '@ticketing/proto';
import { CollaboratorError, jsonClient } from '../src/http/json-client.ts';
import { createLogger } from '../src/logger.ts';
import { createMetrics } from '../src/metrics.ts';
import { createServiceAuth } from '../src/service-auth.ts';

/** A collaborator that answers every request with `status` and `body` as it is given. */
async function answering(status: number, body: string): Promise<{ url: string; server: Server }> {
  const server = createServer((_request, response) => {
    response.writeHead(status, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

function caller() {
  const logs = captureLogs();
  const metrics = createMetrics('orders');
  const logger = createLogger('orders', 'info', logs.stream);
  return { logs, metrics, caller: { serviceAuth: createServiceAuth(testKeyRing.keys('orders')), logger, metrics } };
}

const failures = async (metrics: ReturnType<typeof createMetrics>) =>
  (await metrics.collaboratorFailures.get()).values.map(({ labels, value }) => ({ ...labels, value }));

let servers: Server[] = [];
afterEach(async () => {
  for (const server of servers) await new Promise((resolve) => server.close(resolve));
  servers = [];
});

test('an answer its contract accepts is parsed and handed back', async () => {
  const { url, server } = await answering(
    200,
    JSON.stringify({ paymentId: 'pay_1', providerStatus: 'PENDING', paid: false }),
  );
  servers.push(server);
  const { caller: deps, metrics } = caller();
  const answer = await jsonClient('payments', url, 2000, deps).call(
    'POST',
    '/internal/charges/x/check',
    chargeStatusViewSchema,
  );
  expect(answer).toEqual({ paymentId: 'pay_1', providerStatus: 'PENDING', paid: false });
  expect(await failures(metrics)).toEqual([]);
});

test('a body its contract rejects is a CollaboratorError with the status kept, logged with the issues and counted', async () => {
  const { url, server } = await answering(200, JSON.stringify({ paymentId: 'pay_1', providerStatus: 'PENDING' }));
  servers.push(server);
  const { caller: deps, metrics, logs } = caller();
  const client = jsonClient('payments', url, 2000, deps);

  const error = await client.call('POST', '/internal/charges/x/check', chargeStatusViewSchema).catch((e: unknown) => e);

  expect(error).toBeInstanceOf(CollaboratorError);
  const failure = error as CollaboratorError;
  expect(failure).toMatchObject({ service: 'payments', status: 200, refused: false });
  expect(failure.message).toBe('payments answered POST /internal/charges/x/check with a body its contract rejects');
  expect(failure.issues?.map((issue) => issue.path)).toEqual([['paid']]);
  expect(logs.lines).toContainEqual(
    expect.objectContaining({
      level: 40,
      msg: 'collaborator answer breaks its contract',
      collaborator: 'payments',
      path: '/internal/charges/x/check',
      issues: [expect.objectContaining({ path: ['paid'] })],
    }),
  );
  expect(await failures(metrics)).toEqual([
    expect.objectContaining({ collaborator: 'payments', reason: 'invalid_answer', value: 1 }),
  ]);
});

test('a body that is not JSON at all breaks the contract too', async () => {
  const { url, server } = await answering(200, '<html>proxy error</html>');
  servers.push(server);
  const { caller: deps, metrics } = caller();
  const error = await jsonClient('payments', url, 2000, deps)
    .call('POST', '/internal/charges/x/check', chargeStatusViewSchema)
    .catch((e: unknown) => e);
  expect(error).toMatchObject({ status: 200, refused: false });
  expect((error as CollaboratorError).issues).toHaveLength(1);
  expect(await failures(metrics)).toEqual([expect.objectContaining({ reason: 'invalid_answer', value: 1 })]);
});

test('a refusal keeps its status and pt-BR message, and is not counted as a failure', async () => {
  const { url, server } = await answering(404, JSON.stringify({ message: 'Cobrança não encontrada' }));
  servers.push(server);
  const { caller: deps, metrics } = caller();
  const error = await jsonClient('payments', url, 2000, deps)
    .call('POST', '/internal/charges/x/check', chargeStatusViewSchema)
    .catch((e: unknown) => e);
  expect(error).toMatchObject({ status: 404, message: 'Cobrança não encontrada', refused: true, issues: undefined });
  expect(await failures(metrics)).toEqual([]);
});

test('a collaborator that cannot be reached is counted as unreachable, with the socket code kept', async () => {
  const { url, server } = await answering(200, '{}');
  await new Promise((resolve) => server.close(resolve));
  const { caller: deps, metrics } = caller();
  const error = await jsonClient('payments', url, 2000, deps)
    .call('POST', '/internal/charges/x/check', chargeStatusViewSchema)
    .catch((e: unknown) => e);
  expect(error).toMatchObject({ status: null, code: 'ECONNREFUSED', refused: false });
  expect(await failures(metrics)).toEqual([
    expect.objectContaining({ collaborator: 'payments', reason: 'unreachable', value: 1 }),
  ]);
});
