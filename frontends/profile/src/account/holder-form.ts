import { z } from 'zod';
import { changeHolderSchema } from '@ticketing/proto';

/** The new holder as the form has it: the CPF is asked for only when the ticket's type checks a document. */
export const holderFormSchema = (requiresDocument: boolean) =>
  z
    .object({ name: z.string(), email: z.string(), cpf: z.string() })
    .transform(({ cpf, ...holder }) => (requiresDocument ? { ...holder, cpf } : holder))
    .pipe(changeHolderSchema);
