import { orderItemMessages, type CouponQuote, type EventView, type TicketTypeView } from '@ticketing/proto';
import { discountCents, newTicket, summaryLines, ticketsFormSchema, totalCents } from '../src/checkout/tickets-form.ts';
import { promoEvent } from '../src/events/ticket-types.ts';

const type = (id: string, name: string, price: string, fields: Partial<TicketTypeView> = {}): TicketTypeView => ({
  id,
  name,
  price,
  remaining: null,
  requiresDocument: false,
  onSale: true,
  salesStartAt: null,
  salesEndAt: null,
  currentLot: null,
  ...fields,
});
const professional = type('4b0f8a36-6f1e-4c55-9d0e-1f5b2a7c9e01', 'Profissional', '390.00', {
  currentLot: {
    id: '9a1c3e55-2d4b-4f6a-8b7c-0d1e2f3a4b5c',
    name: '1º lote',
    price: '390.00',
    endsAt: null,
    remaining: 8,
  },
});
const student = type('7d2e4f60-1a3b-4c5d-8e9f-0a1b2c3d4e5f', 'Estudante', '190.00', { requiresDocument: true });
const schema = ticketsFormSchema([professional, student]);

test('the buyer’s own ticket goes without a holder; another’s with name, e-mail, and CPF only where asked', () => {
  const cpf = '529.982.247-25';
  const parsed = schema.parse({
    tickets: [
      newTicket(professional.id, true),
      { ...newTicket(professional.id), name: 'Ana Souza Lima', email: 'Ana@Example.com.br', cpf: '123' },
      { ...newTicket(student.id), name: 'Caio Mendes Prado', email: 'caio@example.com.br', cpf },
    ],
  });
  expect(parsed.items).toEqual([
    { ticketTypeId: professional.id },
    { ticketTypeId: professional.id, holder: { name: 'Ana Souza Lima', email: 'ana@example.com.br' } },
    { ticketTypeId: student.id, holder: { name: 'Caio Mendes Prado', email: 'caio@example.com.br', cpf } },
  ]);
});

test('each holder’s mistakes are told at its own fields, with the contract’s messages', () => {
  const result = schema.safeParse({
    tickets: [
      { ...newTicket(professional.id), name: 'A', email: 'not-an-email' },
      { ...newTicket(student.id), name: 'Caio Mendes Prado', email: 'caio@example.com.br' },
      { ...newTicket(student.id), name: 'Eva Lima Torres', email: 'eva@example.com.br', cpf: '111.111.111-11' },
    ],
  });
  expect(result.success).toBe(false);
  const issues = result.error!.issues.map((issue) => [issue.path.join('.'), issue.message]);
  expect(issues).toEqual([
    ['tickets.0.name', 'Nome deve ter pelo menos 2 caracteres'],
    ['tickets.0.email', 'Email inválido'],
    ['tickets.1.cpf', orderItemMessages.holderCpfRequired('Estudante')],
    ['tickets.2.cpf', 'CPF inválido'],
  ]);
});

test('an order has 1 to 10 tickets', () => {
  const tooMany = Array.from({ length: 11 }, () => newTicket(professional.id, true));
  expect(schema.safeParse({ tickets: [] }).error?.issues[0]?.message).toBe(orderItemMessages.tooFewTickets);
  expect(schema.safeParse({ tickets: tooMany }).error?.issues[0]?.message).toBe(orderItemMessages.tooManyTickets);
});

test('the summary has a line per type chosen, in the organiser’s order, and a fee of R$ 5,00 per ticket', () => {
  const event = { price: '390.00', ticketTypes: [professional, student] };
  const lines = summaryLines(event, [
    newTicket(student.id),
    newTicket(professional.id, true),
    newTicket(professional.id),
  ]);
  expect(lines).toEqual([
    { ticketTypeId: professional.id, name: 'Profissional', lotName: '1º lote', count: 2, price: '390.00' },
    { ticketTypeId: student.id, name: 'Estudante', lotName: null, count: 1, price: '190.00' },
  ]);
  expect(totalCents(lines, null)).toBe(98_500);
  // A promotional code's price replaces each ticket's.
  expect(totalCents(lines, { code: 'PROMO', price: '80.00', ticketType: null })).toBe(25_500);
});

test('an event whose types are not listed sells one ticket at its price', () => {
  const lines = summaryLines({ price: '150.00', ticketTypes: [] }, []);
  expect(lines).toEqual([{ ticketTypeId: null, name: 'Ingresso', lotName: null, count: 1, price: '150.00' }]);
  expect(totalCents(lines, null)).toBe(15_500);
});

test('a coupon takes its share off the tickets it covers, never off the fees, and the total follows', () => {
  const event = { price: '390.00', ticketTypes: [professional, student] };
  const lines = summaryLines(event, [
    newTicket(professional.id, true),
    newTicket(professional.id),
    newTicket(student.id),
  ]);
  const coupon = (fields: Partial<CouponQuote>): CouponQuote => ({
    couponId: '0b7d1c2e-3f4a-4b5c-8d6e-7f8091a2b3c4',
    code: 'CUPOM20',
    percentOff: null,
    amountOff: null,
    ticketTypeIds: [],
    ...fields,
  });
  // 20% of R$ 970,00 of tickets; the three fees stay.
  expect(discountCents(coupon({ percentOff: 20 }), lines)).toBe(19_400);
  expect(totalCents(lines, null, 19_400)).toBe(98_500 - 19_400);
  // Only the student's ticket: 20% of R$ 190,00.
  expect(discountCents(coupon({ percentOff: 20, ticketTypeIds: [student.id] }), lines)).toBe(3_800);
  // An amount never exceeds the tickets it covers.
  expect(discountCents(coupon({ amountOff: '500.00', ticketTypeIds: [student.id] }), lines)).toBe(19_000);
  expect(discountCents(coupon({ amountOff: '25.80' }), lines)).toBe(2_580);
  // The ticket of an event without listed types: only a coupon of every type covers it.
  const plain = summaryLines({ price: '129.00', ticketTypes: [] }, []);
  expect(discountCents(coupon({ percentOff: 20 }), plain)).toBe(2_580);
  expect(discountCents(coupon({ percentOff: 20, ticketTypeIds: [student.id] }), plain)).toBe(0);
});

test('a promotional code whose link names a type sells that type alone, a hidden one at the code’s price', () => {
  const event = { price: '390.00', ticketTypes: [professional, student] } as unknown as EventView;
  const promo = (ticketType: { id: string; name: string } | null) => ({ code: 'PROMO', price: '80.00', ticketType });

  expect(promoEvent(event, null).ticketTypes).toEqual([professional, student]);
  expect(promoEvent(event, promo(null)).ticketTypes).toEqual([professional, student]);
  expect(promoEvent(event, promo({ id: student.id, name: 'Estudante' })).ticketTypes).toEqual([student]);
  const hidden = { id: '1c2d3e4f-5a6b-4c7d-8e9f-a0b1c2d3e4f5', name: 'Convidado VIP' };
  expect(promoEvent(event, promo(hidden)).ticketTypes).toEqual([
    {
      ...hidden,
      price: '80.00',
      remaining: null,
      requiresDocument: false,
      onSale: true,
      salesStartAt: null,
      salesEndAt: null,
      currentLot: null,
    },
  ]);
});
