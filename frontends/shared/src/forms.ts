import { zodResolver } from '@hookform/resolvers/zod';
import { get, useForm, type FieldValues, type Path, type RegisterOptions, type UseFormProps } from 'react-hook-form';
import type { z } from 'zod';

/**
 * A form checked by one of the API's schemas from `@ticketing/proto`, so the page shows the server's own
 * pt-BR messages. Submit handlers receive the schema's output (e.g. birth dates already as YYYY-MM-DD).
 * `field(name)` gives an input its registration and its message (`<TextField {...form.field('email')} />`).
 * Imported from `@ticketing/shared/forms`.
 */
export function useZodForm<Schema extends z.ZodType<FieldValues, FieldValues>>(
  schema: Schema,
  options: Omit<UseFormProps<z.input<Schema>, unknown, z.output<Schema>>, 'resolver'> = {},
) {
  type Input = z.input<Schema>;
  const form = useForm<Input, unknown, z.output<Schema>>({ ...options, resolver: zodResolver(schema) });
  const field = (name: Path<Input>, rules?: RegisterOptions<Input, Path<Input>>) => ({
    ...form.register(name, rules),
    error: (get(form.formState.errors, name) as { message?: string } | undefined)?.message,
  });
  return { ...form, field };
}
