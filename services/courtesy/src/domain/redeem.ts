import { randomUUID } from 'node:crypto';
import { conflict, notFound, type AuthUser } from '@ticketing/platform';
import type { RedeemCourtesy } from '@ticketing/proto';
import { findLinkByCode, takeUse, type CourtesyLink } from '../data/links-repository.ts';
import { hasRedeemed, insertAttendee, insertRedemption } from '../data/redemptions-repository.ts';
import { messages, type CourtesyDeps } from './deps.ts';
import { isUsable } from './links.ts';

/**
 * POST /api/courtesy/redeem: a logged-in guest redeems a free link. One transaction takes one use (one conditional
 * statement: never more than the link's ticket count), keeps the form's data as the attendee, records the
 * redemption (once per user and link) and announces `courtesy.redeemed`; orders makes the R$ 0,00 paid order and
 * the ticket follows from it, sent to the e-mail typed in the form.
 */
export async function redeemCourtesy(deps: CourtesyDeps, user: AuthUser, form: RedeemCourtesy) {
  const link = await findLinkByCode(deps.db, form.code);
  if (link && (await hasRedeemed(deps.db, link.id, user.id))) throw conflict(messages.alreadyRedeemed);
  const redemption = await deps.db.transaction(async (trx) => {
    const used = await takeUse(trx, { code: form.code, promotional: false });
    if (!used) throw whyNotUsable(link);
    const attendeeId = randomUUID();
    await insertAttendee(trx, {
      id: attendeeId,
      name: form.name,
      email: form.email,
      cpf: form.cpf,
      phone: form.phone,
      birthDate: form.birthDate,
      address: form.address,
      partnerCompany: form.partnerCompany,
      occupation: form.occupation,
      eventTitle: used.event.title,
    });
    const redemptionId = randomUUID();
    // A twin request of the same user that committed first wins; this one rolls back, its use with it.
    if (!(await insertRedemption(trx, { id: redemptionId, linkId: used.id, userId: user.id, attendeeId }))) {
      throw conflict(messages.alreadyRedeemed);
    }
    await deps.outbox.add(trx, 'courtesy.redeemed', redemptionId, {
      redemptionId,
      linkId: used.id,
      attendeeId,
      userId: user.id,
      eventId: used.eventId,
      attendee: { name: form.name, email: form.email, cpf: form.cpf },
      event: { title: used.event.title, date: used.event.date.toISOString(), location: used.event.location },
      ...(used.ticketType ? { ticketType: used.ticketType } : {}),
    });
    return { redemptionId, link: used };
  });
  deps.logger.info(
    { linkId: redemption.link.id, redemptionId: redemption.redemptionId, userId: user.id },
    'courtesy redeemed',
  );
  return redemption;
}

function whyNotUsable(link: CourtesyLink | undefined) {
  if (link && isUsable(link) && link.overridePrice !== null) return conflict(messages.promotionalLink);
  return notFound(messages.invalidCode);
}
