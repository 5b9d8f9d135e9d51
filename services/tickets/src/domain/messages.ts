import { scanMessages } from '@ticketing/proto';

/** Every text of the tickets service a person reads (pt-BR). */
export const messages = {
  ...scanMessages,
  qrRequired: 'Informe o conteúdo do QR Code (qrCodeData)',
  qrTooLong: 'QR Code inválido: conteúdo grande demais',
  eventIdInvalid: 'Identificador do evento inválido',
  ticketIdInvalid: 'Identificador do ingresso inválido',
  scanBodyInvalid: 'Dados da leitura inválidos',
  notUsedYet: 'Este ingresso ainda não foi utilizado',
  notUsedInSession: 'Este ingresso ainda não foi utilizado nesta sessão',
  cancelledNoReset: 'Este ingresso foi cancelado e não pode ser liberado',
  resetDone: 'Ingresso liberado para uma nova leitura',
} as const;
