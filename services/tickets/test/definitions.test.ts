import { baseConfigSchema, loadConfig } from '@ticketing/platform';
import { ticketsVerifierService, ticketsWorkerService } from '../src/index.ts';
import { startTickets } from './support.ts';

test('both processes default to one schema, "tickets", on their own ports', () => {
  for (const [definition, port] of [
    [ticketsVerifierService, 3006],
    [ticketsWorkerService, 3007],
  ] as const) {
    const config = loadConfig(baseConfigSchema.extend(definition.config!), {});
    expect({ name: definition.name, schema: config.DB_SCHEMA, port: config.PORT }).toEqual({
      name: definition.name,
      schema: 'tickets',
      port,
    });
  }
  expect(ticketsWorkerService.name).toBe('tickets-worker');
  expect(ticketsVerifierService.name).toBe('tickets-verifier');
  expect(() => loadConfig(baseConfigSchema.extend(ticketsVerifierService.config!), { DB_SCHEMA: 'Tickets!' })).toThrow(
    /DB_SCHEMA/,
  );
});

test('only the worker consumes events; the verifier subscribes to nothing', async () => {
  const tickets = await startTickets();
  try {
    await tickets.issue();
    const groups = await tickets.db
      .withSchema(tickets.busSchema)
      .from('offsets')
      .distinct('group_id')
      .pluck('group_id');
    expect(groups).toEqual(['tickets-worker']);
  } finally {
    await tickets.stop();
  }
});
