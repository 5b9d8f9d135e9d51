import { randomUUID } from 'node:crypto';
import { conflict, forgetPerson, notFound, type Knex } from '@ticketing/platform';
import { certificateMessages, type EventPayload } from '@ticketing/proto';
import {
  eraseCertificates,
  findByCode,
  insertCertificates,
  lockByCode,
  revokeOrderCertificates,
  setStatus,
  type CertificateRow,
} from '../data/certificates-repository.ts';
import { correctHolderName, eraseHolders, lockHolder, revokeOrderHolders } from '../data/holders-repository.ts';
import { newCertificateCode } from './codes.ts';
import type { CertificatesDeps } from './deps.ts';
import { issuedEvent } from './document.ts';
import { knownEvent } from './settings.ts';

/**
 * An administrator corrects a holder's name: the certificate is reissued under a new code (and e-mailed again), and
 * the old code says 'substituído' from now on.
 */
export async function correctName(
  deps: CertificatesDeps,
  eventId: string,
  code: string,
  holderName: string,
): Promise<CertificateRow> {
  const event = await knownEvent(deps, eventId);
  return deps.db.transaction(async (trx) => {
    // The holder first, as a refund locks it: a refund at the same moment revokes the reissued certificate too.
    const found = await findByCode(trx, code);
    if (!found || found.event_id !== eventId) throw notFound(certificateMessages.notFound);
    await lockHolder(trx, found.ticket_id);
    const old = (await lockByCode(trx, eventId, code))!;
    if (old.status !== 'valid') throw conflict(certificateMessages.notValid);
    await setStatus(trx, old.id, 'replaced');
    await correctHolderName(trx, old.ticket_id, holderName);
    const { hours, status: _status, issued_at: _issuedAt, ...kept } = old;
    const [reissued] = await insertCertificates(trx, [
      {
        ...kept,
        id: randomUUID(),
        code: newCertificateCode(),
        holder_name: holderName,
        hours: Number(hours),
        replaces: old.code,
      },
    ]);
    await deps.outbox.add(trx, 'certificate.issued', reissued!.ticket_id, issuedEvent(deps.siteUrl, reissued!, event));
    return reissued!;
  });
}

/**
 * A refunded or charged-back order: its holders are never certified, and what was issued is revoked. The holders are
 * locked first, as a name correction locks them.
 */
export async function revokeOrder(trx: Knex.Transaction, { orderId }: EventPayload<'order.refunded'>): Promise<void> {
  await revokeOrderHolders(trx, orderId);
  await revokeOrderCertificates(trx, orderId);
}

/** A deleted account: its certificates are revoked, and the person's name and address leave every record here. */
export async function forgetUser(
  deps: Pick<CertificatesDeps, 'logger'>,
  trx: Knex.Transaction,
  { userId }: EventPayload<'user.deleted'>,
): Promise<void> {
  const counts = await forgetPerson(trx, userId, ['holder'], async (erased) => {
    return (await eraseHolders(trx, userId, erased)) + (await eraseCertificates(trx, userId, erased));
  });
  deps.logger.info({ userId, ...counts }, 'personal data erased');
}
