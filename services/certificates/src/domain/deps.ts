import type { Knex, Logger, Outbox } from '@ticketing/platform';

/** What every certificates use case needs. */
export interface CertificatesDeps {
  db: Knex;
  outbox: Outbox;
  logger: Logger;
  /** The public site the QR codes and the e-mails point to. */
  siteUrl: string;
}
