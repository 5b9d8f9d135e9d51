import { z } from 'zod';
import { changeHolderSchema } from '@ticketing/proto';

/**
 * The new holder as the form has it: an empty CPF is left out (the order's item does not say whether its type asks
 * for one; the server answers which ticket needs it).
 */
export const holderFormSchema = z
  .object({ name: z.string(), email: z.string(), cpf: z.string() })
  .transform(({ cpf, ...holder }) => (cpf ? { ...holder, cpf } : holder))
  .pipe(changeHolderSchema);
