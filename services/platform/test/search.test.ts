import { containsPattern, foldForSearch, foldedColumn, searchWords } from '../src/index.ts';
import { createDb } from '../src/db.ts';
import { TEST_DATABASE_URL } from '@ticketing/testkit';

test('text and typed words fold alike: lower case, no accents; typed %, _ and \\ are taken literally', () => {
  expect(foldForSearch('Conceição FARMÁCIA Hospitalar')).toBe('conceicao farmacia hospitalar');
  expect(searchWords('  João   d’Ávila ')).toEqual(['joao', 'd’avila']);
  expect(searchWords(undefined)).toEqual([]);
  expect(containsPattern('100%_a\\b')).toBe('%100\\%\\_a\\\\b%');
});

test('a column folded in SQL matches what foldForSearch makes of the same text', async () => {
  const db = createDb(TEST_DATABASE_URL, 'public', 1);
  try {
    const names = ['Conceição Áurea Gonçalves', 'JOSÉ DA SILVA ÇÃO', 'Ñandú Ýñigo Lüdke'];
    const { rows } = await db.raw(
      `select ${foldedColumn('name')} as folded from unnest(?::text[]) with ordinality as t(name, n) order by n`,
      [names],
    );
    expect(rows.map((row: { folded: string }) => row.folded)).toEqual(names.map(foldForSearch));
    const { rows: found } = await db.raw(`select ? like ? as hit`, ['50% off', containsPattern('50%')]);
    expect(found[0].hit).toBe(true);
    const { rows: literal } = await db.raw(`select ? like ? as hit`, ['50x off', containsPattern('50%')]);
    expect(literal[0].hit).toBe(false);
  } finally {
    await db.destroy();
  }
});
