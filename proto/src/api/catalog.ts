import { z } from 'zod';
import { DEFAULT_INSTALLMENT_TERMS, installmentTermsFields, installmentTermsSchema } from '../installments.ts';
import { reasonSchema, type ReasonedAnswer } from './reason.ts';
import { decimalAmount } from '../money.ts';
import { pageQuerySchema, queryInteger, uuidParam } from './params.ts';
import { isoDateTime } from '../envelope.ts';

export const catalogMessages = {
  eventNotFound: 'Evento não encontrado',
  soldOut: 'Evento esgotado',
  unavailable: 'Evento indisponível para compra',
  holdNotFound: 'Reserva não encontrada',
  /** A cancelled event is off sale and out of the storefront for good. */
  cancelled: 'Evento cancelado',
  imageTooLarge: 'Imagem grande demais: o limite é 2 MB',
  imageType: 'Formato de imagem não aceito: envie JPEG, PNG ou WebP',
  imageUrl: 'URL da imagem inválida: envie a imagem pelo formulário do evento',
  imageNotFound: 'Imagem não encontrada',
} as const;

/** Where catalog serves an uploaded image: the hash of its content is in the address, a new image, a new address. */
export const eventImageUrl = (sha256: string) => `/api/events/images/${sha256}`;

/**
 * An event's image is one of the product's own: an upload catalog serves, or one shipped with the site
 * (`/images/events/<name>`). Any other address (another host, `//host/…`, `javascript:`) is refused: the storefront
 * would load whatever it points to on every visit.
 */
const OWN_IMAGE_PATH =
  /^\/api\/events\/images\/[0-9a-f]{64}$|^\/images\/events\/[a-z0-9][a-z0-9-]*\.(svg|png|jpe?g|webp)$/;

const title = z
  .string({ error: 'Título é obrigatório' })
  .trim()
  .min(1, 'Título é obrigatório')
  .max(255, 'Título deve ter no máximo 255 caracteres');
const description = z
  .string({ error: 'Descrição deve ser um texto' })
  .max(20000, 'Descrição deve ter no máximo 20000 caracteres');
const date = z.iso.datetime({ offset: true, error: 'Data inválida: use o formato ISO 8601 com fuso horário' });
const location = z
  .string({ error: 'Local é obrigatório' })
  .trim()
  .min(1, 'Local é obrigatório')
  .max(255, 'Local deve ter no máximo 255 caracteres');
const price = decimalAmount('Preço inválido: use um valor como 150.00');
const imageUrl = z
  .string({ error: catalogMessages.imageUrl })
  .max(500, 'URL da imagem deve ter no máximo 500 caracteres')
  .regex(OWN_IMAGE_PATH, catalogMessages.imageUrl)
  .nullable();
const maxAttendees = z
  .number({ error: 'Número máximo de participantes deve ser um número inteiro' })
  .int('Número máximo de participantes deve ser um número inteiro')
  .min(1, 'Número máximo de participantes deve ser pelo menos 1')
  .max(1_000_000, 'Número máximo de participantes deve ser no máximo 1000000')
  .nullable();
const flag = (name: string) => z.boolean({ error: `${name} deve ser verdadeiro ou falso` });

/** pt-BR texts of an event's sessions. */
export const sessionMessages = {
  invalid: 'Sessões inválidas: informe uma lista de sessões com início e fim',
  required: 'Informe ao menos uma sessão',
  tooMany: 'Um evento pode ter no máximo 60 sessões',
  startsAt: 'Início da sessão inválido: informe data e hora',
  endsAt: 'Fim da sessão inválido: informe data e hora',
  title: 'Título da sessão deve ter no máximo 100 caracteres',
  endBeforeStart: 'Cada sessão deve terminar depois de começar',
  tooLong: 'Cada sessão deve durar no máximo 24 horas',
  overlap: 'As sessões não podem se sobrepor',
  dateNotFirst: 'A data do evento é o início da primeira sessão: informe só as sessões, ou a mesma data',
  unknown: 'Sessão não encontrada neste evento',
} as const;

/** The longest a session may last. */
export const SESSION_MAX_MS = 24 * 60 * 60 * 1000;

/** A strict object's error: the fields it does not know, or `message` for anything else wrong. */
const unknownFieldOr = (message: string) => ({
  error: (issue: { code?: string; keys?: string[] }) =>
    issue.code === 'unrecognized_keys' ? `Campo desconhecido: ${(issue.keys ?? []).join(', ')}` : message,
});

/**
 * One session as an edit sends it: its start and end (an ISO instant with offset; the back office may send a São
 * Paulo date and time) and an optional title. An `id` keeps an existing session (and the admissions to it); a
 * session without one is new, and an existing one left out is removed.
 */
const sessionInput = <Time extends z.ZodType<string>>(time: (message: string) => Time) =>
  z.strictObject(
    {
      id: z.uuid({ error: sessionMessages.unknown }).optional(),
      startsAt: time(sessionMessages.startsAt),
      endsAt: time(sessionMessages.endsAt),
      title: z
        .string({ error: sessionMessages.title })
        .trim()
        .max(100, sessionMessages.title)
        .nullish()
        .transform((value) => value || null),
    },
    unknownFieldOr(sessionMessages.invalid),
  );

const sessionList = <Time extends z.ZodType<string>>(time: (message: string) => Time) =>
  z
    .array(sessionInput(time), { error: sessionMessages.invalid })
    .min(1, sessionMessages.required)
    .max(60, sessionMessages.tooMany);

const isoTime = (message: string) => z.iso.datetime({ offset: true, error: message });

/**
 * What is wrong with a schedule (sessions by their instants), or undefined: each ends after it starts, lasts at most
 * 24 h, and none overlaps another. The catalog checks it; the back office's form says the same before sending.
 */
export function scheduleProblem(sessions: readonly { startsAt: Date; endsAt: Date }[]): string | undefined {
  const ordered = [...sessions].sort((a, b) => a.startsAt.getTime() - b.startsAt.getTime());
  for (const [i, session] of ordered.entries()) {
    const length = session.endsAt.getTime() - session.startsAt.getTime();
    if (length <= 0) return sessionMessages.endBeforeStart;
    if (length > SESSION_MAX_MS) return sessionMessages.tooLong;
    const next = ordered[i + 1];
    if (next && next.startsAt.getTime() < session.endsAt.getTime()) return sessionMessages.overlap;
  }
  return undefined;
}

/** pt-BR texts of ticket types and lots. */
export const ticketTypeMessages = {
  invalid: 'Tipos de ingresso inválidos: informe uma lista com nome e preço',
  required: 'Informe ao menos um tipo de ingresso',
  tooMany: 'Um evento pode ter no máximo 20 tipos de ingresso',
  name: 'Nome do tipo de ingresso é obrigatório (até 60 caracteres)',
  duplicateName: 'Os tipos de ingresso devem ter nomes diferentes',
  capacity: 'Capacidade do tipo deve ser um número inteiro de pelo menos 1',
  salesStartAt: 'Início das vendas inválido: informe data e hora',
  salesEndAt: 'Fim das vendas inválido: informe data e hora',
  salesWindow: 'O fim das vendas deve ser depois do início',
  lotsTooMany: 'Um tipo pode ter no máximo 10 lotes',
  lotName: 'Nome do lote deve ter no máximo 60 caracteres',
  lotEndsAt: 'Fim do lote inválido: informe data e hora',
  lotQuantity: 'Quantidade do lote deve ser um número inteiro de pelo menos 1',
  lotOrder: 'Os lotes devem terminar em ordem: cada data de fim depois da anterior',
  lotWithoutEnd: 'Só o último lote pode ficar sem data de fim nem quantidade',
  unknownType: 'Tipo de ingresso não encontrado neste evento',
  unknownLot: 'Lote não encontrado neste tipo de ingresso',
  typeSold: (name: string) => `O tipo ${name} já tem ingressos vendidos e não pode ser removido`,
  lotSold: (name: string) => `O ${name} já tem ingressos vendidos e não pode ser removido`,
  quantityBelowSold: (name: string) => `O ${name} já vendeu mais ingressos do que a nova quantidade`,
  priceWithTypes: 'Este evento tem tipos de ingresso: altere o preço de cada tipo',
  notOnSale: (name: string) => `O ingresso ${name} não está à venda agora.`,
  typeSoldOut: (name: string) => `Ingresso ${name} esgotado`,
} as const;

/** A ticket type's own settings; `Time` is how its sale window is written (null: open on that side). */
export interface TicketTypeSettings<Time> {
  name: string;
  /** Its price without lots. */
  price: string;
  /** Its own limit within the event's spots; null: the event's alone. */
  capacity: number | null;
  /** Sold only through a promotional link: out of the storefront. */
  hidden: boolean;
  requiresDocument: boolean;
  salesStartAt: Time | null;
  salesEndAt: Time | null;
}

/** The one type an event given none sells, at its price. */
export const DEFAULT_TYPE_NAME = 'Ingresso';

/** A type with nothing set beyond its name and price: no limit of its own, visible, always on sale, no lots. */
export const plainTicketType = (name: string, price: string) => ({
  name,
  price,
  capacity: null,
  hidden: false,
  requiresDocument: false,
  salesStartAt: null,
  salesEndAt: null,
  lots: [],
});

/** A ticket type's times as instants, and what its rules look at; null: no such time. */
export interface TicketTypeTimes {
  name: string;
  salesStartAt: Date | null;
  salesEndAt: Date | null;
  lots: readonly { endsAt: Date | null; quantity: number | null }[];
}

/** A message and the field it is about, within the list of types (`[1, 'lots', 0, 'endsAt']`). */
export interface TicketTypeProblem {
  path: (string | number)[];
  message: string;
}

/**
 * What is wrong with a list of types beyond each field alone, the names first: two types of one name, a sale window
 * that ends before it starts, lots whose ends are not in order, and a lot before the last without an end (neither a
 * date nor a quantity), which would never give way to the next. The catalog refuses the first; the back office's form
 * shows each at its field before sending.
 */
export function ticketTypeProblems(types: readonly TicketTypeTimes[]): TicketTypeProblem[] {
  const problems: TicketTypeProblem[] = [];
  const names = new Set<string>();
  for (const [index, type] of types.entries()) {
    const name = type.name.trim().toLocaleLowerCase('pt-BR');
    if (names.has(name)) problems.push({ path: [index, 'name'], message: ticketTypeMessages.duplicateName });
    names.add(name);
  }
  for (const [index, type] of types.entries()) {
    if (type.salesStartAt && type.salesEndAt && type.salesEndAt.getTime() <= type.salesStartAt.getTime()) {
      problems.push({ path: [index, 'salesEndAt'], message: ticketTypeMessages.salesWindow });
    }
    let lastEnd = -Infinity;
    for (const [position, lot] of type.lots.entries()) {
      const at = [index, 'lots', position, 'endsAt'];
      if (lot.endsAt === null) {
        if (lot.quantity === null && position < type.lots.length - 1) {
          problems.push({ path: at, message: ticketTypeMessages.lotWithoutEnd });
        }
        continue;
      }
      if (lot.endsAt.getTime() <= lastEnd) problems.push({ path: at, message: ticketTypeMessages.lotOrder });
      lastEnd = lot.endsAt.getTime();
    }
  }
  return problems;
}

/** Left out or null: null. */
const orNull = <Schema extends z.ZodType>(schema: Schema) => schema.nullish().transform((value) => value ?? null);

/** A whole number from 1 to 1,000,000; left out or null: null (no limit). */
const countOrNull = (message: string) =>
  orNull(z.number({ error: message }).int(message).min(1, message).max(1_000_000, message));

/**
 * One lot as an edit sends it: a price step that ends at `endsAt`, or when `quantity` tickets sold, whichever first
 * (the last may have neither). `id` keeps an existing lot; one left out is removed (refused once it sold).
 */
const lotInput = <Time extends z.ZodType<string>>(time: (message: string) => Time) =>
  z.strictObject(
    {
      id: z.uuid({ error: ticketTypeMessages.unknownLot }).optional(),
      name: z
        .string({ error: ticketTypeMessages.lotName })
        .trim()
        .max(60, ticketTypeMessages.lotName)
        .nullish()
        .transform((value) => value || null),
      price,
      endsAt: orNull(time(ticketTypeMessages.lotEndsAt)),
      quantity: countOrNull(ticketTypeMessages.lotQuantity),
    },
    unknownFieldOr(ticketTypeMessages.invalid),
  );

/**
 * One ticket type as an edit sends it. `price` is its price without lots (with lots, each lot's price rules).
 * `id` keeps an existing type; one left out is removed (refused once it sold).
 */
const ticketTypeInput = <Time extends z.ZodType<string>>(time: (message: string) => Time) =>
  z.strictObject(
    {
      id: z.uuid({ error: ticketTypeMessages.unknownType }).optional(),
      name: z
        .string({ error: ticketTypeMessages.name })
        .trim()
        .min(1, ticketTypeMessages.name)
        .max(60, ticketTypeMessages.name),
      price,
      capacity: countOrNull(ticketTypeMessages.capacity),
      hidden: flag('hidden').default(false),
      requiresDocument: flag('requiresDocument').default(false),
      salesStartAt: orNull(time(ticketTypeMessages.salesStartAt)),
      salesEndAt: orNull(time(ticketTypeMessages.salesEndAt)),
      lots: z
        .array(lotInput(time), { error: ticketTypeMessages.invalid })
        .max(10, ticketTypeMessages.lotsTooMany)
        .default([]),
    },
    unknownFieldOr(ticketTypeMessages.invalid),
  );

const ticketTypeList = <Time extends z.ZodType<string>>(time: (message: string) => Time) =>
  z
    .array(ticketTypeInput(time), { error: ticketTypeMessages.invalid })
    .min(1, ticketTypeMessages.required)
    .max(20, ticketTypeMessages.tooMany);
export type TicketTypeInput = z.infer<ReturnType<typeof ticketTypeInput>>;

export const createEventSchema = z
  .strictObject(
    {
      title,
      description: description.default(''),
      /** Optional with `sessions`, whose first start it then must be. */
      date: date.optional(),
      location,
      price,
      imageUrl: imageUrl.default(null),
      maxAttendees: maxAttendees.default(null),
      listed: flag('listed').default(true),
      /** Its days or blocks; without them, one session starting at `date` (which is then required). */
      sessions: sessionList(isoTime).optional(),
      /** What it sells; without them, one type, 'Ingresso', at `price`. */
      ticketTypes: ticketTypeList(isoTime).optional(),
      /** False keeps the event a draft: out of the storefront, the door and sale until published (default true). */
      published: flag('published').optional(),
      maxInstallments: installmentTermsFields.maxInstallments.optional(),
      minInstallmentValue: installmentTermsFields.minInstallmentValue.optional(),
    },
    unknownFieldOr('Dados do evento inválidos'),
  )
  .refine((value) => value.date !== undefined || value.sessions !== undefined, {
    error: 'Data inválida: use o formato ISO 8601 com fuso horário',
    path: ['date'],
  });

export const updateEventSchema = z
  .strictObject(
    {
      title,
      description,
      date,
      location,
      price,
      imageUrl,
      maxAttendees,
      listed: flag('listed'),
      isActive: flag('isActive'),
      /** The whole schedule, replacing the one before (see `sessionInput`). */
      sessions: sessionList(isoTime),
      /** Every type, replacing those before (see `ticketTypeInput`). */
      ticketTypes: ticketTypeList(isoTime),
      ...installmentTermsFields,
    },
    unknownFieldOr('Dados do evento inválidos'),
  )
  .partial()
  .refine((value) => Object.keys(value).length > 0, 'Informe ao menos um campo para atualizar');

export const eventSearchSchema = z.object({
  q: z.string({ error: 'Busca inválida' }).max(100, 'Busca deve ter no máximo 100 caracteres').optional(),
});

export const holdSchema = z
  .strictObject(
    {
      quantity: z
        .number({ error: 'Quantidade deve ser um número inteiro' })
        .int('Quantidade deve ser um número inteiro')
        .min(1, 'Quantidade deve ser pelo menos 1')
        .max(100, 'Quantidade deve ser no máximo 100'),
      /** Held for an order being placed: the catalog gives the spots back by itself unless the order confirms them. */
      provisional: z.boolean({ error: 'Provisória deve ser verdadeiro ou falso' }).default(false),
      /**
       * One ticket each, of the types named (as many as `quantity`): each takes its type's current lot and is answered
       * its price in `lines`. Absent: spots of the event alone (a courtesy link's), no type or lot.
       */
      items: z
        .array(z.strictObject({ ticketTypeId: z.uuid({ error: 'Tipo de ingresso inválido' }) }), {
          error: 'Ingressos inválidos',
        })
        .min(1, 'Escolha pelo menos 1 ingresso.')
        .max(10, 'Um pedido pode ter no máximo 10 ingressos.')
        .optional(),
      /** A promotional link opens the event's hidden types (sold only through such a link). */
      includeHidden: z.boolean({ error: 'Tipos ocultos deve ser verdadeiro ou falso' }).default(false),
    },
    unknownFieldOr('Dados da reserva inválidos'),
  )
  .refine((value) => value.items === undefined || value.items.length === value.quantity, {
    error: 'Informe um ingresso para cada unidade da quantidade',
    path: ['items'],
  });

/** Releasing a hold may keep some of its spots taken: those a courtesy link already gave to its guests. */
export const releaseHoldQuerySchema = z.object({
  keep: queryInteger({
    invalid: 'Quantidade a manter deve ser um número inteiro',
    min: 0,
    tooSmall: 'Quantidade a manter não pode ser negativa',
    max: 100,
    tooLarge: 'Quantidade a manter deve ser no máximo 100',
    fallback: 0,
  }),
});

export type CreateEvent = z.infer<typeof createEventSchema>;
export type UpdateEvent = z.infer<typeof updateEventSchema>;

/** A session as the catalog answers it (`EventSession`). */
export const sessionViewSchema = z.object({
  id: z.uuid(),
  startsAt: isoDateTime,
  endsAt: isoDateTime,
  title: z.string().nullable(),
});

/** The lot a type sells at now, and what ends it: its date (`endsAt`), or its tickets running out (`remaining`). */
export const currentLotViewSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  price: z.string().regex(/^\d+\.\d{2}$/),
  endsAt: isoDateTime.nullable(),
  remaining: z.number().int().nullable(),
});
export type CurrentLotView = z.infer<typeof currentLotViewSchema>;

/**
 * A ticket type as buyers see it: `price` is what it sells at now (its current lot's), `remaining` what is left of
 * it within the event's spots (null: no limit), `currentLot` null for a type without lots or with none left.
 */
export const ticketTypeViewSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  price: z.string().regex(/^\d+\.\d{2}$/),
  remaining: z.number().int().nullable(),
  requiresDocument: z.boolean(),
  /** Within its sale window, with tickets left. */
  onSale: z.boolean(),
  salesStartAt: isoDateTime.nullable(),
  salesEndAt: isoDateTime.nullable(),
  currentLot: currentLotViewSchema.nullable(),
});
export type TicketTypeView = z.infer<typeof ticketTypeViewSchema>;

/** An event as the API returns it (also to orders and courtesy, which parse it with this schema). */
export const eventViewSchema = z.object({
  id: z.uuid(),
  title: z.string(),
  description: z.string(),
  date: isoDateTime,
  location: z.string(),
  price: z.string().regex(/^\d+\.\d{2}$/),
  imageUrl: z.string().nullable(),
  maxAttendees: z.number().int().nullable(),
  currentAttendees: z.number().int(),
  remaining: z.number().int().nullable(),
  isActive: z.boolean(),
  listed: z.boolean(),
  /**
   * Open for sale, as the catalog alone decides it (published, active, not cancelled, still to come); its spots may
   * still have run out (`remaining`).
   */
  onSale: z.boolean(),
  /** Its days or blocks, by start: `date` is the first one's start. */
  sessions: z.array(sessionViewSchema).min(1),
  /** What it sells, in the organiser's order; hidden types (sold only through a promotional link) are left out. */
  ticketTypes: z.array(ticketTypeViewSchema),
  /** How many card installments it sells in, and the smallest one. */
  installments: installmentTermsSchema.default(DEFAULT_INSTALLMENT_TERMS),
});
export type EventView = z.infer<typeof eventViewSchema>;

/** One ticket a hold took: its type, the lot it took (null for a type without lots) and that lot's price. */
export const holdLineSchema = z.object({
  ticketTypeId: z.uuid(),
  typeName: z.string(),
  lotId: z.uuid().nullable(),
  lotName: z.string().nullable(),
  price: z.string().regex(/^\d+\.\d{2}$/),
  requiresDocument: z.boolean(),
});
export type HoldLine = z.infer<typeof holdLineSchema>;

/**
 * `PUT|DELETE /internal/events/:id/holds/:holdId` (orders, courtesy): the hold as the catalog answers it, with the
 * event as it stands after it.
 */
export const holdViewSchema = z.object({
  holdId: z.string(),
  quantity: z.number().int(),
  released: z.boolean(),
  kept: z.number().int(),
  /** One per item asked for, in their order; empty for a hold of the event alone. */
  lines: z.array(holdLineSchema).default([]),
  event: eventViewSchema,
});
export type HoldView = z.infer<typeof holdViewSchema>;

/**
 * `GET /internal/events/:id/ticket-types` (courtesy): every type the event sells, hidden ones too, in the organiser's
 * order: what a courtesy link may name.
 */
export const eventTicketTypesSchema = z.object({
  ticketTypes: z.array(
    z.object({ id: z.uuid(), name: z.string(), hidden: z.boolean(), requiresDocument: z.boolean() }),
  ),
});
export type EventTicketTypes = z.infer<typeof eventTicketTypesSchema>;

/** `POST /internal/events/:id/holds/:holdId/confirm` answers 204, without a body. */
export const holdConfirmedSchema = z.undefined();

/** The statuses the back office shows and filters by, one per event. */
export const EVENT_STATUSES = ['rascunho', 'publicado', 'nao_listado', 'encerrado', 'esgotado', 'cancelado'] as const;
export type EventStatus = (typeof EVENT_STATUSES)[number];

/** The time zone event dates are entered and shown in. */
export const EVENT_TIME_ZONE = 'America/Sao_Paulo';

/** An uploaded event image: its size and the formats recognised by content. */
export const EVENT_IMAGE_LIMITS = {
  bytes: 2 * 1024 * 1024,
  types: ['image/jpeg', 'image/png', 'image/webp'],
} as const;

/** The field of the multipart form that carries an event image. */
export const EVENT_IMAGE_FIELD = 'image';

/** The hold a free courtesy link places for its spots; its guests' tickets are taken from it. */
export const courtesyLinkHoldId = (linkId: string) => `courtesy-link:${linkId}`;

const unknownFieldsError = unknownFieldOr('Dados do evento inválidos');

/**
 * A date and time in São Paulo ("2030-03-15T09:00", seconds optional) or an ISO 8601 instant with its offset. The
 * day and range are checked by the catalog.
 */
const localOrOffset = (message: string) =>
  z
    .string({ error: message })
    .refine((value) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?$/.test(value), message);
const localOrOffsetDate = localOrOffset('Data inválida: informe data e hora');

const adminEventFields = {
  title,
  description,
  date: localOrOffsetDate,
  location,
  price,
  imageUrl,
  maxAttendees,
  listed: flag('listed'),
  published: flag('published'),
  /** The schedule; `date` follows its first start (and may then be left out). */
  sessions: sessionList(localOrOffset),
  /** What it sells, replacing the types before (see `ticketTypeInput`); none: one type, 'Ingresso', at `price`. */
  ticketTypes: ticketTypeList(localOrOffset),
  /** Card installments: at most `maxInstallments` (default 1: à vista), each at least `minInstallmentValue`. */
  ...installmentTermsFields,
};

/** The back office's new event: a draft unless `published`; its date must be still to come. */
export const adminCreateEventSchema = z
  .strictObject(
    {
      ...adminEventFields,
      description: description.default(''),
      imageUrl: imageUrl.default(null),
      maxAttendees: maxAttendees.default(null),
      listed: flag('listed').default(true),
      published: flag('published').default(false),
      date: localOrOffsetDate.optional(),
      sessions: adminEventFields.sessions.optional(),
      ticketTypes: adminEventFields.ticketTypes.optional(),
      maxInstallments: adminEventFields.maxInstallments.optional(),
      minInstallmentValue: adminEventFields.minInstallmentValue.optional(),
    },
    unknownFieldsError,
  )
  .refine((value) => value.date !== undefined || value.sessions !== undefined, {
    error: 'Data inválida: informe data e hora',
    path: ['date'],
  });

/** The back office's edit: any of the fields; `published: true` publishes a draft. */
export const adminUpdateEventSchema = z
  .strictObject({ ...adminEventFields, isActive: flag('isActive') }, unknownFieldsError)
  .partial()
  .refine((value) => Object.keys(value).length > 0, 'Informe ao menos um campo para atualizar');

export const adminEventSearchSchema = pageQuerySchema.extend({
  q: z.string({ error: 'Busca inválida' }).max(100, 'Busca deve ter no máximo 100 caracteres').optional(),
  status: z
    .enum(EVENT_STATUSES, {
      error: 'Situação inválida: use rascunho, publicado, nao_listado, encerrado, esgotado ou cancelado',
    })
    .optional(),
});

export type AdminCreateEvent = z.infer<typeof adminCreateEventSchema>;
export type AdminUpdateEvent = z.infer<typeof adminUpdateEventSchema>;
export type AdminEventSearch = z.infer<typeof adminEventSearchSchema>;

/** An event as the back office sees it: any status, with its sales. */
export interface AdminEventView extends EventView {
  status: EventStatus;
  published: boolean;
  publishedAt: string | null;
  /** The date as entered in São Paulo ("2030-03-15T09:00"), for the edit form. */
  localDate: string;
  /** The sessions' starts and ends as entered in São Paulo, for the edit form, in the order of `sessions`. */
  localSessions: { id: string; startsAt: string; endsAt: string; title: string | null }[];
  /** Every type, hidden ones too, with their lots and sales. */
  adminTicketTypes: AdminTicketTypeView[];
  /** Spots sold or given (paid orders, used courtesies). */
  sold: number;
  /** Spots reserved but not yet sold (pending orders, unused courtesy links). */
  held: number;
  /** When an administrator cancelled it, and why; null while it is not cancelled. */
  cancelledAt: string | null;
  cancelReason: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A ticket type as the back office edits it: as entered (São Paulo times too), with what each part sold. */
export interface AdminTicketTypeView extends TicketTypeSettings<string> {
  id: string;
  /** `salesStartAt`/`salesEndAt` in São Paulo ("2030-03-15T09:00"), for the edit form. */
  localSalesStartAt: string | null;
  localSalesEndAt: string | null;
  /** Tickets taken: held by pending orders and sold. */
  taken: number;
  currentLotId: string | null;
  lots: {
    id: string;
    name: string;
    price: string;
    endsAt: string | null;
    localEndsAt: string | null;
    quantity: number | null;
    taken: number;
  }[];
}

export const cancelEventMessages = {
  reasonRequired: 'Informe o motivo do cancelamento.',
  reasonLength: 'O motivo do cancelamento deve ter entre 3 e 500 caracteres.',
  alreadyCancelled: 'Este evento já foi cancelado',
  alreadyHappened: 'Não é possível cancelar um evento que já aconteceu',
  editCancelled: 'Não é possível alterar um evento cancelado',
  confirmation: 'Evento cancelado. Os pedidos pagos serão reembolsados e os participantes avisados por e-mail',
} as const;

/** An administrator cancels an event for good: its paid orders are refunded and its holders told why. */
export const cancelEventSchema = reasonSchema(cancelEventMessages);
export type CancelEvent = z.infer<typeof cancelEventSchema>;

/** The answer to a cancellation: what happens next, and the event as the back office now sees it. */
export type CancelEventAnswer = ReasonedAnswer<'event', AdminEventView>;

export interface AdminEventPage {
  events: AdminEventView[];
  page: number;
  totalPages: number;
  total: number;
}

/** `/api/events/:id`, `/api/admin/events/:id`, `/internal/events/:id/holds/:holdId`: the event the path names. */
export const eventParamsSchema = z.object({ id: uuidParam(catalogMessages.eventNotFound) });

/** `GET /api/events/images/:sha256`: an uploaded image, by the hash of its content. */
export const eventImageParamsSchema = z.object({
  sha256: z.string().regex(/^[0-9a-f]{64}$/, catalogMessages.imageNotFound),
});
