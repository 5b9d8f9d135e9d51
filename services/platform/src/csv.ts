import { stringify } from 'csv-stringify/sync';
import { EVENT_TIME_ZONE } from '@ticketing/proto';

export const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8';

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

/**
 * A spreadsheet export: a header row, then one row per record, for Excel in Brazil: `;`-separated with a byte order
 * mark (opened as UTF-8, accents intact), dates in São Paulo, and a cell a spreadsheet would run as a formula
 * (`=`, `+`, `-`, `@`, tab, carriage return first) written with a leading apostrophe, so a guest named
 * `=HYPERLINK(...)` stays text (OWASP's CSV injection advice).
 */
export function toCsv(header: string[], rows: (string | number | Date | null | undefined)[][]): string {
  return stringify([header, ...rows], {
    bom: true,
    delimiter: ';',
    record_delimiter: '\r\n',
    escape_formulas: true,
    cast: { date: (date) => SPREADSHEET_TIME.format(date).replace(', ', ' ') },
  });
}

/** `Content-Disposition` for a download named `fileName` (ASCII, with its UTF-8 spelling beside it, RFC 8187). */
export const attachment = (fileName: string) =>
  `attachment; filename="${fileName
    .normalize('NFD')
    .replace(/[^\x20-\x7e]/g, '')
    .replace(/"/g, '')}"; filename*=UTF-8''${encodeURIComponent(fileName).replace(
    /['()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  )}`;
