import { queryPath } from '../../shared/src/api/query-client.ts';
import { ticketTypeLabel, ticketTypesKey } from '../src/courtesy-links/ticket-types.ts';

test('the creation card marks a hidden type, which only such links sell', () => {
  expect(ticketTypeLabel({ name: 'Profissional', hidden: false })).toBe('Profissional');
  expect(ticketTypeLabel({ name: 'Convidado VIP', hidden: true })).toBe('Convidado VIP (oculto)');
});

test("the types of the chosen event are asked of courtesy's route for its managers", () => {
  const eventId = '6f1f1c55-5e0f-4f8e-9d6a-1b2c3d4e5f60';
  expect(queryPath(ticketTypesKey(eventId))).toBe(`/courtesy/events/${eventId}/ticket-types`);
});
