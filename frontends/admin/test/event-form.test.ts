import { installmentMessages, ticketTypeMessages, type AdminTicketTypeView } from '@ticketing/proto';
import { eventFormSchema, type EventFormValues } from '../src/events/event-form.ts';
import {
  NEW_LOT,
  NEW_TICKET_TYPE,
  openedTypes,
  firstPrice,
  ticketTypeValuesOf,
  type LotFormValues,
  type TicketTypeFormValues,
} from '../src/events/ticket-types.ts';

const event: EventFormValues = {
  title: 'Congresso de Farmácia Clínica',
  description: '',
  sessions: [{ startsAt: '2031-05-20T09:00', endsAt: '2031-05-20T18:00', title: '' }],
  location: 'São Paulo, SP',
  price: '150,00',
  ticketTypes: [],
  maxAttendees: null,
  listed: true,
  published: false,
  maxInstallments: 1,
  minInstallmentValue: '5,00',
};

const lot = (values: Partial<LotFormValues>): LotFormValues => ({ ...NEW_LOT, price: '100,00', ...values });
const type = (values: Partial<TicketTypeFormValues>): TicketTypeFormValues => ({
  ...NEW_TICKET_TYPE,
  price: '150,00',
  ...values,
});

/** The form's messages, by the field they sit on. */
function problems(ticketTypes: TicketTypeFormValues[]): Record<string, string> {
  const checked = eventFormSchema.safeParse({ ...event, ticketTypes });
  return Object.fromEntries((checked.error?.issues ?? []).map((issue) => [issue.path.join('.'), issue.message]));
}

test('lots end in order, and only the last may have neither an end nor a quantity: the catalog’s messages', () => {
  const ordered = [
    lot({ name: '1º lote', endsAt: '2031-03-01T00:00', price: '100,00' }),
    lot({ quantity: 50, price: '120,00' }),
    lot({ endsAt: '2031-04-01T00:00', price: '130,00' }),
    lot({ price: '150,00' }),
  ];
  expect(problems([type({ name: 'Profissional', lots: ordered })])).toEqual({});

  const backwards = [lot({ endsAt: '2031-04-01T00:00' }), lot({ endsAt: '2031-03-01T23:59' }), lot({})];
  expect(problems([type({ name: 'Profissional', lots: backwards })])).toEqual({
    'ticketTypes.0.lots.1.endsAt': ticketTypeMessages.lotOrder,
  });
  // The same time twice is no order either.
  const same = [lot({ endsAt: '2031-04-01T00:00' }), lot({ endsAt: '2031-04-01T00:00' })];
  expect(problems([type({ name: 'Profissional', lots: same })])).toEqual({
    'ticketTypes.0.lots.1.endsAt': ticketTypeMessages.lotOrder,
  });

  const endless = [lot({}), lot({ endsAt: '2031-04-01T00:00' })];
  expect(problems([type({ name: 'Estudante' }), type({ name: 'Profissional', lots: endless })])).toEqual({
    'ticketTypes.1.lots.0.endsAt': ticketTypeMessages.lotWithoutEnd,
  });
});

test('a sale window ends after it starts, two types never share a name, and each field keeps its own message', () => {
  const window = { salesStartAt: '2031-03-01T10:00', salesEndAt: '2031-03-01T10:00' };
  expect(problems([type({ name: 'Estudante', ...window })])).toEqual({
    'ticketTypes.0.salesEndAt': ticketTypeMessages.salesWindow,
  });
  expect(problems([type({ name: 'Estudante', ...window, salesEndAt: '2031-03-01T10:01' })])).toEqual({});

  expect(problems([type({ name: 'VIP' }), type({ name: ' vip ' })])).toEqual({
    'ticketTypes.1.name': ticketTypeMessages.duplicateName,
  });

  expect(problems([type({ name: '', price: 'abc', capacity: 0, lots: [lot({ quantity: 0 })] })])).toEqual({
    'ticketTypes.0.name': ticketTypeMessages.name,
    'ticketTypes.0.price': 'Preço inválido: use um valor como 150.00',
    'ticketTypes.0.capacity': ticketTypeMessages.capacity,
    'ticketTypes.0.lots.0.quantity': ticketTypeMessages.lotQuantity,
  });
});

test('a plain event sends its price and no types; the list, when used, goes whole', () => {
  const plain = eventFormSchema.parse(event);
  expect(plain).toMatchObject({ price: '150.00' });
  expect(plain.ticketTypes).toBeUndefined();
});

test('what the form sends: empty dates and names as none, prices with a dot, each type and lot by its id', () => {
  const id = '5b1f5a8e-6a51-4d2a-9a0e-1f2d3c4b5a60';
  const checked = eventFormSchema.parse({
    ...event,
    ticketTypes: [
      type({ id, name: 'Profissional', hidden: true, lots: [lot({ endsAt: '2031-03-01T00:00' }), lot({})] }),
    ],
  });
  expect(checked.ticketTypes).toEqual([
    {
      id,
      name: 'Profissional',
      price: '150.00',
      capacity: null,
      hidden: true,
      requiresDocument: false,
      salesStartAt: null,
      salesEndAt: null,
      lots: [
        { name: null, price: '100.00', endsAt: '2031-03-01T00:00', quantity: null },
        { name: null, price: '100.00', endsAt: null, quantity: null },
      ],
    },
  ]);
});

const stored = (values: Partial<AdminTicketTypeView>): AdminTicketTypeView => ({
  id: '6c2f5a8e-6a51-4d2a-9a0e-1f2d3c4b5a61',
  name: 'Ingresso',
  price: '150.00',
  capacity: null,
  hidden: false,
  requiresDocument: false,
  salesStartAt: null,
  salesEndAt: null,
  localSalesStartAt: null,
  localSalesEndAt: null,
  taken: 3,
  currentLotId: null,
  lots: [],
  ...values,
});

test('an event selling one plain Ingresso keeps the price field alone; opening the list keeps that type by its id', () => {
  const plain = stored({});
  expect(ticketTypeValuesOf([])).toBeUndefined();
  expect(ticketTypeValuesOf([plain])).toBeUndefined();
  expect(openedTypes([plain], '180,00')).toEqual([
    { ...NEW_TICKET_TYPE, id: plain.id, name: 'Ingresso', price: '180,00' },
    NEW_TICKET_TYPE,
  ]);
  // Anything beyond the plain type shows the list, as saved, in São Paulo's time.
  const document = stored({
    requiresDocument: true,
    salesEndAt: '2031-03-01T03:00:00.000Z',
    localSalesEndAt: '2031-03-01T00:00',
  });
  expect(ticketTypeValuesOf([document])).toEqual([
    {
      id: plain.id,
      name: 'Ingresso',
      price: '150,00',
      capacity: null,
      hidden: false,
      requiresDocument: true,
      salesStartAt: null,
      salesEndAt: '2031-03-01T00:00',
      lots: [],
    },
  ]);
});

test('a type with lots opens at its first lot’s price; a lot named by its place is shown unnamed', () => {
  expect(firstPrice(type({ price: '200,00', lots: [lot({ price: '80,50' }), lot({ price: '90' })] }))).toBe('80,50');
  expect(firstPrice(type({ price: '200,00' }))).toBe('200,00');
  const lots = [
    { id: 'a', name: '1º lote', price: '80.00', endsAt: null, localEndsAt: null, quantity: 10, taken: 0 },
    { id: 'b', name: 'Lote de lançamento', price: '90.00', endsAt: null, localEndsAt: null, quantity: null, taken: 0 },
    { id: 'c', name: '1º lote', price: '99.00', endsAt: null, localEndsAt: null, quantity: null, taken: 0 },
  ];
  expect(ticketTypeValuesOf([stored({ lots })])![0]!.lots.map((value) => value.name)).toEqual([
    '',
    'Lote de lançamento',
    '1º lote',
  ]);
});

test('installment terms: 1 to 12 installments of at least R$ 5,00, typed with a decimal comma', () => {
  const checked = (terms: Partial<EventFormValues>) => eventFormSchema.safeParse({ ...event, ...terms });
  expect(checked({ maxInstallments: 6, minInstallmentValue: '50,00' }).data).toMatchObject({
    maxInstallments: 6,
    minInstallmentValue: '50.00',
  });
  const messages = (terms: Partial<EventFormValues>) =>
    Object.fromEntries((checked(terms).error?.issues ?? []).map((issue) => [issue.path.join('.'), issue.message]));
  expect(messages({ maxInstallments: 13, minInstallmentValue: '4,99' })).toEqual({
    maxInstallments: installmentMessages.maxInvalid,
    minInstallmentValue: installmentMessages.minValueInvalid,
  });
  // An emptied count arrives as NaN (valueAsNumber).
  expect(messages({ maxInstallments: Number.NaN })).toEqual({ maxInstallments: installmentMessages.maxInvalid });
});
