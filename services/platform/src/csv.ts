import { stringify } from 'csv-stringify/sync';
import { EVENT_TIME_ZONE } from '@ticketing/proto';

/** Excel (pt-BR) opens a `;`-separated file with a byte order mark as UTF-8, accents intact. */
const BOM = '\uFEFF';
export const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8';

/**
 * A cell a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab, carriage return first) is written with a
 * leading apostrophe, so a guest named `=HYPERLINK(...)` stays text (OWASP's CSV injection advice).
 */
function neutralised(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** `12/03/2027 19:00`: times as the provider's staff read them, on São Paulo's clock. */
const SPREADSHEET_TIME = new Intl.DateTimeFormat('pt-BR', {
  timeZone: EVENT_TIME_ZONE,
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

const cell = (value: string | number | Date | null | undefined): string => {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return SPREADSHEET_TIME.format(value).replace(', ', ' ');
  return typeof value === 'number' ? String(value) : neutralised(value);
};

/** A spreadsheet export: a header row, then one row per record, for Excel in Brazil (dates in São Paulo). */
export function toCsv(header: string[], rows: (string | number | Date | null | undefined)[][]): string {
  return (
    BOM +
    stringify([header.map(cell), ...rows.map((row) => row.map(cell))], { delimiter: ';', record_delimiter: '\r\n' })
  );
}

/** `Content-Disposition` for a download named `fileName` (ASCII, with its UTF-8 spelling beside it). */
export const attachment = (fileName: string) =>
  `attachment; filename="${fileName
    .normalize('NFD')
    .replace(/[^\x20-\x7e]/g, '')
    .replace(/"/g, '')}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
