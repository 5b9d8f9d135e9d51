import { SERVICE_UNAVAILABLE, type CatalogClient, type Knex, type Logger, type Outbox } from '@ticketing/platform';
import { catalogMessages, courtesyMessages } from '@ticketing/proto';

/** What every courtesy use case needs. */
export interface CourtesyDeps {
  db: Knex;
  outbox: Outbox;
  logger: Logger;
  catalog: CatalogClient;
  /** The public site the redeem URLs point to. */
  siteUrl: string;
  codePrefix: string;
}

export const messages = {
  ...courtesyMessages,
  serviceUnavailable: SERVICE_UNAVAILABLE,
  soldOut: catalogMessages.soldOut,
  csvRows: 'O arquivo tem erros; nenhum convite foi enviado.',
  guestErased: 'Convite não enviado: a conta do convidado foi excluída',
} as const;
