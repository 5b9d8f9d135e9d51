import type { ScanView } from '@ticketing/proto';
import type { ResetResult } from '../domain/reset-ticket.ts';
import type { ScanResult } from '../domain/verify-ticket.ts';
import { messages } from '../domain/messages.ts';

/** The answer the scanner reads: `success`, `userName` and `message` (spec), plus the outcome's code. */
export function toScanView(result: ScanResult): ScanView {
  return {
    success: result.success,
    userName: result.userName,
    ticketType: result.ticketType,
    message: result.message,
    code: result.code,
    eventTitle: result.eventTitle,
    ...(result.usedAt ? { usedAt: result.usedAt.toISOString() } : {}),
    sessionId: result.sessionId,
    ticketId: result.ticketId,
    orderId: result.orderId,
  };
}

export function toResetView(result: ResetResult) {
  return {
    message: messages.resetDone,
    ticketId: result.ticketId,
    orderId: result.orderId,
    sessionId: result.sessionId,
    resetAt: result.resetAt.toISOString(),
  };
}
