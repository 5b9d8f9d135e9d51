/** How the provider writes and checks the values it is sent. */

/** "YYYY-MM-DD HH:mm:ss" in Brasília time (UTC−3). */
export function brasiliaNow(now = Date.now()): string {
  return new Date(now - 3 * 3600_000).toISOString().slice(0, 19).replace('T', ' ');
}

/** Today in Brasília, "YYYY-MM-DD". */
export const brasiliaToday = () => brasiliaNow().slice(0, 10);

/** A CPF or CNPJ as the provider keeps it: its letters and digits alone, upper-cased (CNPJs may carry letters). */
export const taxIdCharacters = (value: unknown) =>
  typeof value === 'string' ? value.toUpperCase().replace(/[^0-9A-Z]/g, '') : '';

/** Reais as the API writes them, from integer cents. */
export const reais = (cents: number) => cents / 100;

/** The same day `months` later ("2026-01-31" + 1 → "2026-02-28"), as monthly due dates fall. */
export function addMonths(date: string, months: number): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const lastDay = new Date(Date.UTC(year, month - 1 + months + 1, 0)).getUTCDate();
  return new Date(Date.UTC(year, month - 1 + months, Math.min(day, lastDay))).toISOString().slice(0, 10);
}

export const isDate = (value: unknown): value is string =>
  typeof value === 'string' &&
  /^\d{4}-\d{2}-\d{2}$/.test(value) &&
  new Date(`${value}T00:00:00Z`).toISOString().startsWith(value);

/** A page of a list, as every list endpoint answers it. */
export function listOf<T>(items: T[], query: Record<string, string>) {
  const offset = Math.max(0, Number(query.offset ?? 0) || 0);
  const limit = Math.min(100, Math.max(1, Number(query.limit ?? 10) || 10));
  const data = items.slice(offset, offset + limit);
  return {
    object: 'list',
    hasMore: offset + data.length < items.length,
    totalCount: items.length,
    limit,
    offset,
    data,
  };
}
