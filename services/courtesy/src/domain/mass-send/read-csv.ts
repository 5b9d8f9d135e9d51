import { fileTypeFromBuffer } from 'file-type';
import { CsvError, parse } from 'csv-parse/sync';
import { badRequest, AppError } from '@ticketing/platform';
import { MASS_SEND_COLUMNS, MASS_SEND_LIMITS, massSendRowSchema } from '@ticketing/proto';
import { messages } from '../deps.ts';

/** A guest of the file, with the line it is on (the header is line 1, as a spreadsheet shows it). */
export interface GuestRow {
  line: number;
  name: string;
  email: string;
  ticketCount: number;
  eventId: string;
}

export interface ReadCsv {
  rows: GuestRow[];
  /** Row-level problems in pt-BR ('Linha 3: e-mail inválido'). */
  problems: string[];
}

/** Only text: no binary format file-type recognises, valid UTF-8 and no control characters but tab and newlines. */
async function csvText(bytes: Buffer): Promise<string> {
  if (bytes.length > MASS_SEND_LIMITS.csvBytes) throw new AppError(413, messages.csvTooLarge);
  if (await fileTypeFromBuffer(bytes)) throw new AppError(415, messages.csvNotCsv);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new AppError(415, messages.csvNotCsv);
  }
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(text)) throw new AppError(415, messages.csvNotCsv);
  return text;
}

/** Excel in Brazil writes `;`; others write `,`. The header line says which one this file uses. */
function delimiterOf(text: string): ';' | ',' {
  const header = text.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '';
  return header.split(';').length > header.split(',').length ? ';' : ',';
}

function records(text: string) {
  try {
    return parse(text, {
      delimiter: delimiterOf(text),
      bom: true,
      trim: true,
      skip_empty_lines: true,
      relax_column_count: true,
      info: true,
    }) as unknown as { record: string[]; info: { lines: number } }[];
  } catch (error) {
    if (error instanceof CsvError) {
      const line = (error as CsvError & { lines?: number }).lines;
      throw badRequest(`Linha ${line ?? 1}: formato CSV inválido (verifique as aspas)`);
    }
    throw error;
  }
}

const sameHeader = (record: string[]) =>
  record.length === MASS_SEND_COLUMNS.length &&
  record.every(
    (name, i) =>
      name
        .replace(/^\uFEFF/, '')
        .trim()
        .toLowerCase() === MASS_SEND_COLUMNS[i],
  );

/**
 * Reads the mass-send CSV: checks it is really CSV text within the limits, that the header is the expected one,
 * and every row on its own. Refusals of the whole file are thrown; row problems are listed.
 */
export async function readGuestCsv(bytes: Buffer): Promise<ReadCsv> {
  const [header, ...body] = records(await csvText(bytes));
  if (!header || !sameHeader(header.record)) throw badRequest(messages.csvHeader);
  if (body.length === 0) throw badRequest(messages.csvEmpty);
  if (body.length > MASS_SEND_LIMITS.maxRows) throw new AppError(413, messages.csvTooManyRows);

  const rows: GuestRow[] = [];
  const problems: string[] = [];
  for (const { record, info } of body) {
    const line = info.lines;
    if (record.length !== MASS_SEND_COLUMNS.length) {
      problems.push(`Linha ${line}: esperadas ${MASS_SEND_COLUMNS.length} colunas, encontradas ${record.length}`);
      continue;
    }
    const parsed = massSendRowSchema.safeParse(Object.fromEntries(MASS_SEND_COLUMNS.map((c, i) => [c, record[i]])));
    if (!parsed.success) {
      problems.push(`Linha ${line}: ${parsed.error.issues[0]!.message}`);
      continue;
    }
    const { name, email, amount_of_courtesies, event_id } = parsed.data;
    rows.push({ line, name, email, ticketCount: amount_of_courtesies, eventId: event_id.toLowerCase() });
  }
  return { rows, problems };
}
