/** Lower case without accents, so "Conceição" and "conceicao" meet: the form searched text and typed words take. */
export const foldForSearch = (text: string): string => text.toLowerCase().normalize('NFD').replace(/\p{M}/gu, '');

/** The words of what was typed, folded; a match contains every one of them. */
export const searchWords = (query: string | undefined): string[] =>
  query ? foldForSearch(query).split(/\s+/).filter(Boolean) : [];

/** A LIKE pattern that finds `term` anywhere, with the user's `%`, `_` and `\` taken literally. */
export const containsPattern = (term: string): string => `%${term.replace(/[\\%_]/g, '\\$&')}%`;

// The accented letters of Portuguese (and a few of its neighbours'), each with the letter it folds to.
const ACCENTED = 'áàâãäåéèêëíìîïóòôõöúùûüçñý';
const PLAIN = 'aaaaaaeeeeiiiiooooouuuucny';

/** A text column folded in SQL as `foldForSearch` folds text (no database extension needed). */
export const foldedColumn = (column: string): string => `translate(lower(${column}), '${ACCENTED}', '${PLAIN}')`;
