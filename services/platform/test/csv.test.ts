import { parse } from 'csv-parse/sync';
import { attachment, toCsv } from '../src/csv.ts';

test('an export opens in Excel as UTF-8, with accents intact and formulas kept as text', () => {
  const csv = toCsv(
    ['Nome', 'E-mail', 'Entradas'],
    [
      ['João Ávila; Conceição', 'joao@example.com', 2],
      ['=HYPERLINK("http://x")', '+5511999', null],
      ['-1+2', '@SUM(A1)', 0],
      ['Aspas "duplas"\nquebra', 'linha', 1],
      ['Ana', new Date('2027-03-12T22:00:00Z'), 1],
    ],
  );
  expect(csv.startsWith('\uFEFF')).toBe(true);
  const rows = parse(csv.slice(1), { delimiter: ';' }) as string[][];
  expect(rows).toEqual([
    ['Nome', 'E-mail', 'Entradas'],
    ['João Ávila; Conceição', 'joao@example.com', '2'],
    [`'=HYPERLINK("http://x")`, "'+5511999", ''],
    ["'-1+2", "'@SUM(A1)", '0'],
    ['Aspas "duplas"\nquebra', 'linha', '1'],
    ['Ana', '12/03/2027 19:00', '1'],
  ]);
});

test('a download name keeps its accents for browsers that read them, and plain letters for those that do not', () => {
  expect(attachment('participantes-são-paulo.csv')).toBe(
    `attachment; filename="participantes-sao-paulo.csv"; filename*=UTF-8''participantes-s%C3%A3o-paulo.csv`,
  );
  // RFC 8187 leaves no apostrophe, bracket or star unencoded in `filename*`.
  expect(attachment("Dia d'Água (1)*.csv")).toBe(
    `attachment; filename="Dia d'Agua (1)*.csv"; filename*=UTF-8''Dia%20d%27%C3%81gua%20%281%29%2A.csv`,
  );
});
