/** How a reading at the door ended: the holder let in, or why not. */
export type ScanCode = 'valid' | 'already_used' | 'cancelled' | 'wrong_event' | 'not_found' | 'invalid';

/**
 * The answer to POST /api/verify-ticket. Every reading is answered 200, `success` saying whether the holder may come
 * in; the scanner shows `userName` and `message` (spec), `code` says why, `usedAt` when it was used already.
 */
export interface ScanView {
  success: boolean;
  code: ScanCode;
  message: string;
  userName: string | null;
  eventTitle: string | null;
  usedAt?: string;
}
