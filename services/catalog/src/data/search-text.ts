/** Lower-case and without accents, so "Farmácia" and "farmacia" meet: the form both the index and the query take. */
export function foldForSearch(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '');
}

/** The searchable text of an event: its title, description and location, folded. */
export function searchTextOf(event: { title: string; description: string; location: string }): string {
  return foldForSearch([event.title, event.description, event.location].join('\n'));
}

/** What the back office's search looks in: an event's title and location, folded. */
export function headingTextOf(event: { title: string; location: string }): string {
  return foldForSearch([event.title, event.location].join('\n'));
}

/** The words of a query, folded; an event matches when it contains every one of them. */
export function searchTerms(query: string | undefined): string[] {
  if (!query) return [];
  return foldForSearch(query)
    .split(/\s+/)
    .filter((term) => term.length > 0);
}

/** A LIKE pattern that finds `term` anywhere, with the user's `%`, `_` and `\` taken literally. */
export function containsPattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}
