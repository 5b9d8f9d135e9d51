import { readingInputMessages, scanMessages } from '@ticketing/proto';

/** Every text of the tickets service a person reads (pt-BR). */
export const messages = {
  ...scanMessages,
  ...readingInputMessages,
  notUsedYet: 'Este ingresso ainda não foi utilizado',
  notUsedInSession: 'Este ingresso ainda não foi utilizado nesta sessão',
  cancelledNoReset: 'Este ingresso foi cancelado e não pode ser liberado',
  resetDone: 'Ingresso liberado para uma nova leitura',
} as const;
