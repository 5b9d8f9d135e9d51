import pg from 'pg';
import { createLogger, createPostgresTransport } from '../../src/index.ts';
import { TEST_DATABASE_URL, dropSchemas, uniqueName, waitFor } from '@ticketing/testkit';
import { busContract } from './contract.ts';

busContract('postgres');

test('the log keeps a message as long as Kafka keeps it, then deletes it, read or not', async () => {
  const schema = uniqueName('bus_retention');
  const logger = createLogger('bus-retention', 'silent');
  const transport = createPostgresTransport({
    url: TEST_DATABASE_URL,
    schema,
    logger,
    retentionMs: 60_000,
    pruneEveryMs: 50,
  });
  const client = new pg.Client(TEST_DATABASE_URL);
  await client.connect();
  try {
    await transport.publish([
      { topic: 'order.paid', key: 'velho', value: '{"buyer":{"name":"Ana"}}' },
      { topic: 'order.paid', key: 'novo', value: '{"buyer":{"name":"Bia"}}' },
    ]);
    await client.query(`update ${schema}.log set created_at = now() - interval '2 minutes' where key = 'velho'`);
    await waitFor(async () => {
      const { rows } = await client.query<{ key: string }>(`select key from ${schema}.log`);
      return rows.length === 1 && rows[0]!.key === 'novo';
    });
  } finally {
    await client.end();
    await transport.close();
    await dropSchemas([schema]);
  }
});

test('sessions lost under a delivery (PostgreSQL restarting) end nothing: the message comes again, wake-ups resume', async () => {
  const schema = uniqueName('bus_lost');
  const name = uniqueName('bus_sessions');
  // Polling too seldom to matter here: only a LISTEN opened again brings the second message.
  const transport = createPostgresTransport({
    url: `${TEST_DATABASE_URL}?application_name=${name}`,
    schema,
    logger: createLogger('bus-lost', 'silent'),
    pollMs: 600_000,
  });
  const admin = new pg.Client(TEST_DATABASE_URL);
  await admin.connect();
  const delivered: string[] = [];
  let cut = false;
  const terminateSessions = () =>
    admin.query('select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1', [name]);
  const subscription = await transport.subscribe('g', ['order.paid'], async ({ key }) => {
    // The first delivery loses every session of the transport: its own transaction's and the LISTEN's.
    if (!cut) {
      cut = true;
      await terminateSessions();
      return;
    }
    delivered.push(key);
  });
  try {
    await transport.publish([{ topic: 'order.paid', key: 'primeiro', value: '{}' }]);
    await waitFor(() => delivered.includes('primeiro'));
    await transport.publish([{ topic: 'order.paid', key: 'segundo', value: '{}' }]);
    await waitFor(() => delivered.includes('segundo'));
    expect(delivered).toEqual(['primeiro', 'segundo']);
  } finally {
    await subscription.close();
    await admin.end();
    await transport.close();
    await dropSchemas([schema]);
  }
});
