import { isValidCnpj } from '@ticketing/proto';
import { birthDateMask, cnpjMask, cpfMask, phoneMask } from '../src/masks.ts';

/** Types `text` one character at a time, the mask reformatting after each, as the input does. */
const type = (mask: typeof cpfMask, text: string) => [...text].reduce((value, char) => mask.apply(value + char), '');

test.each([
  ['1', '1'],
  ['1234', '123.4'],
  ['1234567', '123.456.7'],
  ['1234567890', '123.456.789-0'],
  ['12345678901', '123.456.789-01'],
  ['123456789012345', '123.456.789-01'],
  ['abc123.456.789-01', '123.456.789-01'],
])('CPF %s → %s', (typed, shown) => {
  expect(type(cpfMask, typed)).toBe(shown);
  expect(cpfMask.apply(typed)).toBe(shown);
});

test.each([
  ['1', '(1'],
  ['11', '(11'],
  ['119', '(11) 9'],
  ['1140028922', '(11) 4002-8922'],
  ['11987654321', '(11) 98765-4321'],
  ['119876543210000', '(11) 98765-4321'],
])('phone %s → %s', (typed, shown) => {
  expect(type(phoneMask, typed)).toBe(shown);
});

test.each([
  ['1', '1'],
  ['140', '14/0'],
  ['14031990', '14/03/1990'],
  ['1403199012', '14/03/1990'],
])('birth date %s → %s', (typed, shown) => {
  expect(type(birthDateMask, typed)).toBe(shown);
});

test.each([
  ['1', '1'],
  ['123', '12.3'],
  ['12345678', '12.345.678'],
  ['123456780001', '12.345.678/0001'],
  ['12345678000195', '12.345.678/0001-95'],
  ['12.345.678/0001-95999', '12.345.678/0001-95'],
  ['12abc34501de35', '12.ABC.345/01DE-35'],
  ['12ABC34501DEX3', '12.ABC.345/01DE-3'],
])('CNPJ %s → %s, letters only before the check digits', (typed, shown) => {
  expect(type(cnpjMask, typed)).toBe(shown);
  expect(cnpjMask.apply(typed)).toBe(shown);
});

test('a CNPJ typed through the mask keeps its check digits valid, numeric or alphanumeric', () => {
  expect(isValidCnpj(type(cnpjMask, '11222333000181'))).toBe(true);
  expect(isValidCnpj(type(cnpjMask, '12abc34501de35'))).toBe(true);
  expect(isValidCnpj(type(cnpjMask, '11222333000182'))).toBe(false);
  expect(cnpjMask.inputMode).toBe('text');
});

test('each mask stops at the length of its format', () => {
  expect([cpfMask, phoneMask, birthDateMask, cnpjMask].map((mask) => mask.maxLength)).toEqual([14, 15, 10, 18]);
  expect(cnpjMask.apply('99999999999999')).toHaveLength(18);
  expect(cpfMask.apply('99999999999')).toHaveLength(14);
  expect(phoneMask.apply('99999999999')).toHaveLength(15);
  expect(birthDateMask.apply('99999999')).toHaveLength(10);
});
