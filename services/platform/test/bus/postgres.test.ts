import pg from 'pg';
import { createLogger, createPostgresTransport } from '../../src/index.ts';
import { TEST_DATABASE_URL, dropSchemas, uniqueName, waitFor } from '../../src/testing.ts';
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
