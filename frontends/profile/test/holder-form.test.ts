import { holderFormSchema } from '../src/account/holder-form.ts';

test('a new holder is sent by name and e-mail, with the CPF only when the ticket checks a document', () => {
  const typed = { name: ' Davi Rezende Costa ', email: 'Davi@Example.com.br', cpf: '529.982.247-25' };
  expect(holderFormSchema(false).parse(typed)).toEqual({ name: 'Davi Rezende Costa', email: 'davi@example.com.br' });
  expect(holderFormSchema(true).parse(typed)).toEqual({
    name: 'Davi Rezende Costa',
    email: 'davi@example.com.br',
    cpf: '529.982.247-25',
  });
});

test('each mistake is told at its field with the contract’s message, a missing CPF too when one is checked', () => {
  const result = holderFormSchema(true).safeParse({ name: 'D', email: 'davi', cpf: '111.111.111-11' });
  expect(result.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
    ['name', 'Nome deve ter pelo menos 2 caracteres'],
    ['email', 'Email inválido'],
    ['cpf', 'CPF inválido'],
  ]);
  const missing = holderFormSchema(true).safeParse({
    name: 'Davi Rezende Costa',
    email: 'davi@example.com.br',
    cpf: '',
  });
  expect(missing.error?.issues[0]).toMatchObject({
    path: ['cpf'],
    message: 'CPF deve estar no formato 000.000.000-00',
  });
});
