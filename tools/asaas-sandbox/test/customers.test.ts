import { makeCpf } from '@ticketing/testkit';
import { makeCnpj, startTestSandbox, type TestSandbox } from './support.ts';

let t: TestSandbox;
beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(() => t.close());

const strip = (cpfCnpj: string) => cpfCnpj.replace(/[./-]/g, '');

test('a company by numeric CNPJ is JURIDICA, found by its CNPJ with or without punctuation, and read by id', async () => {
  const cnpj = makeCnpj();
  const created = await t.ok('POST', '/customers', { name: 'Farmácia Exemplo Ltda', cpfCnpj: cnpj });
  expect(created).toMatchObject({
    object: 'customer',
    id: expect.stringMatching(/^cus_\d{12}$/),
    name: 'Farmácia Exemplo Ltda',
    cpfCnpj: strip(cnpj),
    personType: 'JURIDICA',
  });
  for (const query of [strip(cnpj), encodeURIComponent(cnpj)]) {
    expect(await t.ok('GET', `/customers?cpfCnpj=${query}`)).toMatchObject({
      object: 'list',
      totalCount: 1,
      data: [{ id: created.id, personType: 'JURIDICA' }],
    });
  }
  expect(await t.ok('GET', `/customers/${created.id}`)).toEqual(created);
  expect(await t.api('GET', '/customers/cus_000000999999')).toEqual({
    status: 404,
    body: { errors: [{ code: 'not_found', description: expect.any(String) }] },
  });
});

test('an alphanumeric CNPJ (12 letters or digits, then 2 digits) is accepted upper-cased and found again', async () => {
  const cnpj = makeCnpj({ alphanumeric: true });
  expect(strip(cnpj)).toMatch(/^[0-9A-Z]{12}\d{2}$/);
  expect(strip(cnpj)).toMatch(/[A-Z]/);
  const created = await t.ok('POST', '/customers', { name: 'Nova Empresa S.A.', cpfCnpj: cnpj.toLowerCase() });
  expect(created).toMatchObject({ cpfCnpj: strip(cnpj), personType: 'JURIDICA' });
  const found = await t.ok('GET', `/customers?cpfCnpj=${encodeURIComponent(cnpj)}`);
  expect(found.data.map((customer: { id: string }) => customer.id)).toEqual([created.id]);
  expect(await t.ok('GET', `/customers/${created.id}`)).toMatchObject({ cpfCnpj: strip(cnpj) });
});

test('a person by CPF is FISICA and found by it', async () => {
  const cpf = makeCpf();
  const person = await t.ok('POST', '/customers', { name: 'Maria Silva', cpfCnpj: cpf });
  expect(person).toMatchObject({ cpfCnpj: strip(cpf), personType: 'FISICA' });
  const found = await t.ok('GET', `/customers?cpfCnpj=${strip(cpf)}`);
  expect(found).toMatchObject({ totalCount: 1, data: [{ id: person.id, personType: 'FISICA' }] });
});

test('wrong check digits, wrong lengths and letters where digits belong are refused with invalid_cpfCnpj', async () => {
  const numeric = strip(makeCnpj());
  const alphanumeric = strip(makeCnpj({ alphanumeric: true }));
  const otherDigit = (digit: string) => String((Number(digit) + 1) % 10);
  const invalid = [
    numeric.slice(0, 13) + otherDigit(numeric[13]!),
    alphanumeric.slice(0, 12) + otherDigit(alphanumeric[12]!) + alphanumeric[13],
    `${alphanumeric.slice(0, 12)}A${alphanumeric[13]}`,
    numeric.slice(0, 13),
    '11111111111111',
    '123.456.789-00',
    'AB1234567890',
  ];
  const before = t.sandbox.customers.size;
  for (const cpfCnpj of invalid) {
    expect(await t.api('POST', '/customers', { name: 'Empresa', cpfCnpj })).toEqual({
      status: 400,
      body: { errors: [{ code: 'invalid_cpfCnpj', description: 'O CPF/CNPJ informado é inválido.' }] },
    });
  }
  expect(t.sandbox.customers.size).toBe(before);
});
