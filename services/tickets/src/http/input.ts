import { deviceId, sessionIdInput, uuidParam } from '@ticketing/proto';
import { z } from 'zod';
import { messages } from '../domain/messages.ts';
import { QR_TEXT_MAX_LENGTH } from '@ticketing/proto';

/**
 * A reading from the scanner: the text of the QR code and, optionally, the event the door checks in and the device
 * that read it.
 */
export const verifyTicketInput = z.object(
  {
    qrCodeData: z
      .string({ error: messages.qrRequired })
      .trim()
      .min(1, messages.qrRequired)
      .max(QR_TEXT_MAX_LENGTH, messages.qrTooLong),
    eventId: z.uuid({ error: messages.eventIdInvalid }).optional(),
    /** The session of that event; without it, the one whose door is open. */
    sessionId: sessionIdInput.optional(),
    deviceId: deviceId.optional(),
  },
  { error: messages.scanBodyInvalid },
);

/** An event named in a door path. */
export const eventIdParam = z.uuid({ error: messages.eventIdInvalid });

/** A ticket named in a door path. */
export const ticketIdParam = z.uuid({ error: messages.ticketIdInvalid });

/** The order whose ticket an administrator lets through once more; an id that is no UUID names no order. */
export const resetParams = z.object({ orderId: uuidParam(messages.notFound) });

/**
 * The session whose admission to undo (without it, every session's), and which ticket of the order (without it, its
 * first: orders of one ticket need not say).
 */
export const resetInput = z.object(
  { sessionId: sessionIdInput.optional(), ticketId: z.uuid({ error: messages.ticketIdInvalid }).optional() },
  { error: messages.scanBodyInvalid },
);
