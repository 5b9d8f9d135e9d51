import { foldForSearch } from '@ticketing/platform';

/** The searchable text of an event: its title, description and location, folded. */
export function searchTextOf(event: { title: string; description: string; location: string }): string {
  return foldForSearch([event.title, event.description, event.location].join('\n'));
}

/** What the back office's search looks in: an event's title and location, folded. */
export function headingTextOf(event: { title: string; location: string }): string {
  return foldForSearch([event.title, event.location].join('\n'));
}
