import { holderFormSchema } from '../src/account/holder-form.ts';

test('a new holder is sent by name and e-mail, with the CPF only when one was typed', () => {
  expect(holderFormSchema.parse({ name: ' Davi Rezende Costa ', email: 'Davi@Example.com.br', cpf: '' })).toEqual({
    name: 'Davi Rezende Costa',
    email: 'davi@example.com.br',
  });
  expect(
    holderFormSchema.parse({ name: 'Davi Rezende Costa', email: 'davi@example.com.br', cpf: '529.982.247-25' }),
  ).toEqual({ name: 'Davi Rezende Costa', email: 'davi@example.com.br', cpf: '529.982.247-25' });
});

test('each mistake is told at its field with the contract’s message', () => {
  const result = holderFormSchema.safeParse({ name: 'D', email: 'davi', cpf: '111.111.111-11' });
  expect(result.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
    ['name', 'Nome deve ter pelo menos 2 caracteres'],
    ['email', 'Email inválido'],
    ['cpf', 'CPF inválido'],
  ]);
});
