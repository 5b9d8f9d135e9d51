/** How the provider writes and checks the values it is sent. */

/** "YYYY-MM-DD HH:mm:ss" in Brasília time (UTC−3). */
export function brasiliaNow(now = Date.now()): string {
  return new Date(now - 3 * 3600_000).toISOString().slice(0, 19).replace('T', ' ');
}

/** Today in Brasília, "YYYY-MM-DD". */
export const brasiliaToday = () => brasiliaNow().slice(0, 10);

export const digitsOnly = (value: unknown) => (typeof value === 'string' ? value.replace(/\D/g, '') : '');

export function validCnpj(cnpj: string): boolean {
  if (!/^\d{14}$/.test(cnpj) || /^(\d)\1{13}$/.test(cnpj)) return false;
  const digit = (length: number) => {
    const weights = length === 12 ? [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2] : [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
    const sum = weights.reduce((total, weight, i) => total + weight * Number(cnpj[i]), 0);
    const rest = sum % 11;
    return rest < 2 ? 0 : 11 - rest;
  };
  return digit(12) === Number(cnpj[12]) && digit(13) === Number(cnpj[13]);
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
