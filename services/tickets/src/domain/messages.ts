/** Dates at the door are read in the event's country. */
const TIME_ZONE = 'America/Sao_Paulo';
const DAY = new Intl.DateTimeFormat('pt-BR', {
  timeZone: TIME_ZONE,
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
});
const TIME = new Intl.DateTimeFormat('pt-BR', {
  timeZone: TIME_ZONE,
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** Every text of the tickets service a person reads (pt-BR). */
export const messages = {
  valid: 'Ingresso válido',
  alreadyUsed: (at: Date) => `Ingresso já utilizado em ${DAY.format(at)} às ${TIME.format(at)}`,
  cancelled: 'Ingresso cancelado',
  wrongEvent: (title: string) => `Ingresso de outro evento: ${title}`,
  notFound: 'Ingresso não encontrado',
  invalid: 'QR Code inválido',
  outdated: 'QR Code inválido: este ingresso foi reemitido, apresente o QR Code mais recente',
  qrRequired: 'Informe o conteúdo do QR Code (qrCodeData)',
  qrTooLong: 'QR Code inválido: conteúdo grande demais',
  eventIdInvalid: 'Identificador do evento inválido',
  scanBodyInvalid: 'Dados da leitura inválidos',
  notUsedYet: 'Este ingresso ainda não foi utilizado',
  cancelledNoReset: 'Este ingresso foi cancelado e não pode ser liberado',
  resetDone: 'Ingresso liberado para uma nova leitura',
} as const;
