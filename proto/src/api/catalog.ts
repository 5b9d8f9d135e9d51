import { z } from 'zod';
import { decimalAmount } from '../money.ts';

export const catalogMessages = {
  eventNotFound: 'Evento não encontrado',
  soldOut: 'Evento esgotado',
  unavailable: 'Evento indisponível para compra',
  holdNotFound: 'Reserva não encontrada',
} as const;

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
  .string({ error: 'URL da imagem inválida' })
  .max(500, 'URL da imagem deve ter no máximo 500 caracteres')
  .refine((value) => /^(https?:\/\/|\/)\S+$/.test(value), 'URL da imagem inválida')
  .nullable();
const maxAttendees = z
  .number({ error: 'Número máximo de participantes deve ser um número inteiro' })
  .int('Número máximo de participantes deve ser um número inteiro')
  .min(1, 'Número máximo de participantes deve ser pelo menos 1')
  .max(1_000_000, 'Número máximo de participantes deve ser no máximo 1000000')
  .nullable();
const flag = (name: string) => z.boolean({ error: `${name} deve ser verdadeiro ou falso` });

export const createEventSchema = z.strictObject(
  {
    title,
    description: description.default(''),
    date,
    location,
    price,
    imageUrl: imageUrl.default(null),
    maxAttendees: maxAttendees.default(null),
    listed: flag('listed').default(true),
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys' ? `Campo desconhecido: ${issue.keys.join(', ')}` : 'Dados do evento inválidos',
  },
);

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
    },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? `Campo desconhecido: ${issue.keys.join(', ')}`
          : 'Dados do evento inválidos',
    },
  )
  .partial()
  .refine((value) => Object.keys(value).length > 0, 'Informe ao menos um campo para atualizar');

export const eventSearchSchema = z.object({
  q: z.string({ error: 'Busca inválida' }).max(100, 'Busca deve ter no máximo 100 caracteres').optional(),
});

export const holdSchema = z.strictObject(
  {
    quantity: z
      .number({ error: 'Quantidade deve ser um número inteiro' })
      .int('Quantidade deve ser um número inteiro')
      .min(1, 'Quantidade deve ser pelo menos 1')
      .max(100, 'Quantidade deve ser no máximo 100'),
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `Campo desconhecido: ${issue.keys.join(', ')}`
        : 'Dados da reserva inválidos',
  },
);

/** Releasing a hold may keep some of its spots taken: those a courtesy link already gave to its guests. */
export const releaseHoldQuerySchema = z.object({
  keep: z.coerce
    .number({ error: 'Quantidade a manter deve ser um número inteiro' })
    .int('Quantidade a manter deve ser um número inteiro')
    .min(0, 'Quantidade a manter não pode ser negativa')
    .max(100, 'Quantidade a manter deve ser no máximo 100')
    .default(0),
});

export type CreateEvent = z.infer<typeof createEventSchema>;
export type UpdateEvent = z.infer<typeof updateEventSchema>;

/** An event as the API returns it. */
export interface EventView {
  id: string;
  title: string;
  description: string;
  date: string;
  location: string;
  price: string;
  imageUrl: string | null;
  maxAttendees: number | null;
  currentAttendees: number;
  remaining: number | null;
  isActive: boolean;
  listed: boolean;
}
