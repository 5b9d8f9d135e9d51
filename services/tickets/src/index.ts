export { ticketsVerifierService, ticketsWorkerService } from './service.ts';
export { verifierConfig, workerConfig, type TicketsConfig } from './config.ts';
export { ticketsMigrations } from './data/migrations.ts';
export { issueTickets, toQrPng } from './domain/issue-ticket.ts';
export { verifyTickets, type ScanResult, type ScanRequest } from './domain/verify-ticket.ts';
export { createDoor, type Door } from './domain/door.ts';
export { resetTicket, type ResetResult } from './domain/reset-ticket.ts';
export {
  createTicketKeys,
  ensureTicketKey,
  rotateTicketKey,
  retireTicketKey,
  type TicketKeys,
  type PublishedKey,
} from './domain/ticket-keys.ts';
export { signTicket, hasValidSignature, generateKeyMaterial, type SigningKey } from './domain/qr-code.ts';
export { messages } from './domain/messages.ts';
export { type TicketsDeps } from './domain/deps.ts';
export { toTicketRow, type NewTicket } from './data/tickets-repository.ts';
export { keepEventCopy } from './data/event-snapshots-repository.ts';
