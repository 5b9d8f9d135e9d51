import { queryPath } from '../src/api/query-client.ts';

test('a query key is the API path of its segments, with a trailing object as the query string', () => {
  expect(queryPath(['auth', 'me'])).toBe('/auth/me');
  expect(queryPath(['events', '3f1c2a9e'])).toBe('/events/3f1c2a9e');
  expect(queryPath(['orders', { page: 2 }])).toBe('/orders?page=2');
  expect(queryPath(['courtesy-links', { page: 1, q: undefined }])).toBe('/courtesy-links?page=1');
});

test('segments are escaped, so a code cannot change the path', () => {
  expect(queryPath(['courtesy-links', 'A/B?C'])).toBe('/courtesy-links/A%2FB%3FC');
});
