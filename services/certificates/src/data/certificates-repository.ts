import type { Knex } from '@ticketing/platform';
import type { CertificateStatus, ErasedPerson } from '@ticketing/proto';

/** A session printed on a certificate. */
export interface PrintedSession {
  label: string;
  startsAt: string;
  endsAt: string;
  hours: number;
}

export interface CertificateRow {
  id: string;
  code: string;
  ticket_id: string;
  order_id: string;
  user_id: string;
  event_id: string;
  holder_name: string;
  holder_email: string;
  /** The buyer's account holds it (else its holder, by e-mail). */
  buyer_holds: boolean;
  hours: string;
  sessions: PrintedSession[];
  body: string;
  signer_name: string | null;
  signer_role: string | null;
  status: CertificateStatus;
  replaces: string | null;
  issued_at: Date;
}

export type NewCertificate = Omit<CertificateRow, 'hours' | 'status' | 'issued_at'> & { hours: number };

/** Inserts certificates; a ticket that already has one (a concurrent issue) is left out of the answer. */
export async function insertCertificates(trx: Knex.Transaction, rows: NewCertificate[]): Promise<CertificateRow[]> {
  if (rows.length === 0) return [];
  return trx('certificates')
    .insert(rows.map((row) => ({ ...row, sessions: JSON.stringify(row.sessions) })))
    .onConflict()
    .ignore()
    .returning('*');
}

export const findByCode = (db: Knex, code: string): Promise<CertificateRow | undefined> =>
  db('certificates').where({ code }).first();

export const findById = (db: Knex, id: string): Promise<CertificateRow | undefined> =>
  db('certificates').where({ id }).first();

/** A certificate of an event, locked for a correction (its holder locked before it). */
export const lockByCode = (trx: Knex.Transaction, eventId: string, code: string): Promise<CertificateRow | undefined> =>
  trx('certificates').where({ code, event_id: eventId }).forUpdate().first();

/** The certificates of the tickets a person holds: bought for themselves, or held under their account's e-mail. */
export const byHolder = (db: Knex, holder: { id: string; email: string }): Promise<CertificateRow[]> =>
  db('certificates')
    .where((where) =>
      where
        .where({ user_id: holder.id, buyer_holds: true })
        .orWhereRaw('lower(holder_email) = ?', [holder.email.toLowerCase()]),
    )
    .orderBy('issued_at', 'desc');

/** Whether a person holds a certificate's ticket (see byHolder). */
export const isHeldBy = (certificate: CertificateRow, holder: { id: string; email: string }): boolean =>
  (certificate.buyer_holds && certificate.user_id === holder.id) ||
  certificate.holder_email.toLowerCase() === holder.email.toLowerCase();

export const byEvent = (db: Knex, eventId: string): Promise<CertificateRow[]> =>
  db('certificates')
    .where({ event_id: eventId })
    .orderBy([{ column: 'holder_name' }, { column: 'issued_at' }]);

export async function setStatus(trx: Knex.Transaction, id: string, status: CertificateStatus): Promise<void> {
  await trx('certificates').where({ id }).update({ status });
}

/** Revokes an order's valid certificates. */
export const revokeOrderCertificates = (trx: Knex.Transaction, orderId: string): Promise<number> =>
  trx('certificates').where({ order_id: orderId, status: 'valid' }).update({ status: 'revoked' });

/**
 * Revokes the certificates an account holds and takes the person's name and address out of every one; those of
 * tickets it bought for others stay theirs.
 */
export const eraseCertificates = (trx: Knex.Transaction, userId: string, erased: ErasedPerson): Promise<number> =>
  trx('certificates')
    .where({ user_id: userId, buyer_holds: true })
    .update({
      holder_name: erased.name,
      holder_email: erased.email,
      status: trx.raw(`case when status = 'valid' then 'revoked' else status end`),
    });
