import { companyMessages } from '@ticketing/proto';
import { companyFormSchema, noCompany } from '../src/checkout/company-form.ts';
import { installmentOptions } from '../src/checkout/installments.ts';

/** Intl writes "R$ 1.295,00" with a no-break space. */
const brl = (text: string) => text.replaceAll('R$ ', 'R$\u00a0');

test('Parcelas: each count the event allows for the total, at its installment, the first one à vista', () => {
  const options = installmentOptions(129_500, { max: 6, minValue: '250.00' });
  expect(options).toEqual(
    [
      [1, '1x de R$ 1.295,00 (à vista)'],
      [2, '2x de R$ 647,50'],
      [3, '3x de R$ 431,67'],
      [4, '4x de R$ 323,75'],
      [5, '5x de R$ 259,00'],
    ].map(([count, label]) => ({ count, label: brl(label as string) })),
  );
  // A discounted total may allow fewer; an event that never said sells at once.
  expect(installmentOptions(60_000, { max: 6, minValue: '250.00' }).map(({ count }) => count)).toEqual([1, 2]);
  expect(installmentOptions(129_500, { max: 1, minValue: '5.00' }).map(({ count }) => count)).toEqual([1]);
});

test('unchecked, the order goes in the buyer’s own name, whatever was typed in the company’s fields', () => {
  expect(companyFormSchema.parse({ ...noCompany, cnpj: '123' })).toEqual({});
});

test('as a company: the CNPJ (numeric or alphanumeric) formatted, the e-mail lower-cased, no purchase order as null', () => {
  const company = { asCompany: true, name: ' Farmácia Modelo Ltda ', email: 'Financeiro@Modelo.com.br' };
  expect(companyFormSchema.parse({ ...company, cnpj: '11222333000181', purchaseOrder: '' })).toEqual({
    company: {
      cnpj: '11.222.333/0001-81',
      name: 'Farmácia Modelo Ltda',
      email: 'financeiro@modelo.com.br',
      purchaseOrder: null,
    },
  });
  expect(companyFormSchema.parse({ ...company, cnpj: '12.ABC.345/01DE-35', purchaseOrder: 'PC-2026-118' })).toEqual({
    company: expect.objectContaining({ cnpj: '12.ABC.345/01DE-35', purchaseOrder: 'PC-2026-118' }),
  });
});

test('as a company, each mistake is told at its field with the contract’s message', () => {
  const result = companyFormSchema.safeParse({
    asCompany: true,
    cnpj: '11.222.333/0001-82',
    name: 'F',
    email: 'financeiro',
    purchaseOrder: 'x'.repeat(61),
  });
  expect(result.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
    ['cnpj', companyMessages.cnpjInvalid],
    ['name', companyMessages.nameInvalid],
    ['email', companyMessages.emailInvalid],
    ['purchaseOrder', companyMessages.purchaseOrderInvalid],
  ]);
  expect(companyMessages.cnpjInvalid).toBe('CNPJ inválido');
});
