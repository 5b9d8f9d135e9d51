import type { TicketTypeView } from '@ticketing/proto';
import {
  closedTypesLabel,
  fewLeftLabel,
  listsTicketTypes,
  lotLabel,
  offSaleLabel,
} from '../src/events/ticket-types.ts';

const NOW = Date.parse('2026-01-10T12:00:00.000Z');

const type = (fields: Partial<TicketTypeView> = {}): TicketTypeView => ({
  id: '4b0f8a36-6f1e-4c55-9d0e-1f5b2a7c9e01',
  name: 'Ingresso',
  price: '150.00',
  remaining: null,
  requiresDocument: false,
  onSale: true,
  salesStartAt: null,
  salesEndAt: null,
  currentLot: null,
  ...fields,
});
const lot = (fields: Partial<NonNullable<TicketTypeView['currentLot']>> = {}) => ({
  id: '9a1c3e55-2d4b-4f6a-8b7c-0d1e2f3a4b5c',
  name: '1º lote',
  price: '100.00',
  endsAt: null,
  remaining: null,
  ...fields,
});

test('an event selling one plain Ingresso shows its price alone, as the spec’s page; any other lists its types', () => {
  expect(listsTicketTypes({ ticketTypes: [] })).toBe(false);
  expect(listsTicketTypes({ ticketTypes: [type()] })).toBe(false);
  expect(listsTicketTypes({ ticketTypes: [type({ name: 'Profissional' })] })).toBe(true);
  expect(listsTicketTypes({ ticketTypes: [type(), type({ name: 'Estudante' })] })).toBe(true);
  expect(listsTicketTypes({ ticketTypes: [type({ currentLot: lot() })] })).toBe(true);
  expect(listsTicketTypes({ ticketTypes: [type({ requiresDocument: true })] })).toBe(true);
  expect(listsTicketTypes({ ticketTypes: [type({ salesEndAt: '2026-01-20T12:00:00.000Z' })] })).toBe(true);
});

test('a lot says what ends it: its date (São Paulo’s day), its tickets running out, or both', () => {
  expect(lotLabel(type())).toBeNull();
  // 02:00 UTC on the 16th is still the 15th in São Paulo.
  const endsAt = '2026-01-16T02:00:00.000Z';
  expect(lotLabel(type({ currentLot: lot({ endsAt, remaining: 40 }) }))).toBe('1º lote · até 15/01 ou enquanto durar');
  expect(lotLabel(type({ currentLot: lot({ endsAt }) }))).toBe('1º lote · até 15/01');
  expect(lotLabel(type({ currentLot: lot({ remaining: 40 }) }))).toBe('1º lote · enquanto durar');
  expect(lotLabel(type({ currentLot: lot({ name: 'Último lote' }) }))).toBe('Último lote');
});

test('few tickets left of a type or of its lot are counted; many, none or no limit are not', () => {
  expect(fewLeftLabel(type({ remaining: 12 }))).toBe('Restam 12');
  expect(fewLeftLabel(type({ remaining: 300, currentLot: lot({ remaining: 3 }) }))).toBe('Restam 3');
  expect(fewLeftLabel(type({ remaining: 1 }))).toBe('Resta 1');
  expect(fewLeftLabel(type({ remaining: 21 }))).toBeNull();
  expect(fewLeftLabel(type({ remaining: null }))).toBeNull();
  expect(fewLeftLabel(type({ remaining: 0, onSale: false }))).toBeNull();
});

test('a type off sale says why: sold out, its sale still to open, or over', () => {
  expect(offSaleLabel(type(), NOW)).toBeNull();
  expect(offSaleLabel(type({ onSale: false, remaining: 0 }), NOW)).toBe('Esgotado');
  expect(offSaleLabel(type({ onSale: false, salesStartAt: '2026-01-15T13:00:00.000Z' }), NOW)).toBe(
    'Vendas a partir de 15/01',
  );
  expect(offSaleLabel(type({ onSale: false, salesEndAt: '2026-01-09T13:00:00.000Z' }), NOW)).toBe('Vendas encerradas');
});

test('the buy button is closed only when no type can be bought, saying why', () => {
  const soldOut = type({ onSale: false, remaining: 0 });
  const later = type({ onSale: false, salesStartAt: '2026-02-01T13:00:00.000Z' });
  const sooner = type({ onSale: false, salesStartAt: '2026-01-20T13:00:00.000Z' });
  const over = type({ onSale: false, salesEndAt: '2026-01-09T13:00:00.000Z' });
  expect(closedTypesLabel({ ticketTypes: [] }, NOW)).toBeNull();
  expect(closedTypesLabel({ ticketTypes: [soldOut, type()] }, NOW)).toBeNull();
  expect(closedTypesLabel({ ticketTypes: [soldOut, soldOut] }, NOW)).toBe('Evento Esgotado');
  expect(closedTypesLabel({ ticketTypes: [soldOut, later, sooner] }, NOW)).toBe('Vendas a partir de 20/01');
  expect(closedTypesLabel({ ticketTypes: [soldOut, over] }, NOW)).toBe('Vendas encerradas');
});
