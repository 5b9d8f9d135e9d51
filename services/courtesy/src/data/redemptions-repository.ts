import type { Knex } from '@ticketing/platform';

export interface Attendee {
  id: string;
  name: string;
  email: string;
  cpf: string;
  phone: string;
  birthDate: string;
  address: string;
  partnerCompany: string | null;
  occupation: string | null;
  eventTitle: string;
}

export async function insertAttendee(trx: Knex.Transaction, attendee: Attendee): Promise<void> {
  await trx('courtesy_attendees').insert({
    id: attendee.id,
    name: attendee.name,
    email: attendee.email,
    cpf: attendee.cpf,
    phone: attendee.phone,
    birth_date: attendee.birthDate,
    address: attendee.address,
    partner_company: attendee.partnerCompany,
    occupation: attendee.occupation,
    event_title: attendee.eventTitle,
  });
}

/** Records who redeemed a link; false when this user already did (the unique key decides, whatever the timing). */
export async function insertRedemption(
  trx: Knex.Transaction,
  redemption: { id: string; linkId: string; userId: string; attendeeId: string },
): Promise<boolean> {
  const rows = await trx('courtesy_redemptions')
    .insert({
      id: redemption.id,
      link_id: redemption.linkId,
      user_id: redemption.userId,
      attendee_id: redemption.attendeeId,
    })
    .onConflict(['link_id', 'user_id'])
    .ignore()
    .returning('id');
  return rows.length === 1;
}

export async function hasRedeemed(db: Knex, linkId: string, userId: string): Promise<boolean> {
  return !!(await db('courtesy_redemptions').where({ link_id: linkId, user_id: userId }).first('id'));
}
