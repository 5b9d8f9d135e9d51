import type { ReactNode } from 'react';
import { Badge, buttonClass } from '@ticketing/shared';

/**
 * A ticket's QR code to show at the door, with whether it was used (or how to enter), its PNG to download and what
 * else it offers. `compact`: one ticket of an order of several, smaller, under its line.
 */
export function TicketCode({
  qrCodeData,
  alt,
  fileName,
  downloadLabel,
  used,
  hint,
  compact = false,
  children,
}: {
  qrCodeData: string;
  alt: string;
  fileName: string;
  /** The link's name where the card has several ('Baixar ingresso 2 (PNG)'). */
  downloadLabel?: string;
  /** The badge of a used ticket ('Utilizado'); null while unused. */
  used: string | null;
  /** What to do with an unused one. */
  hint?: string;
  compact?: boolean;
  children?: ReactNode;
}) {
  const size = compact ? 112 : 176;
  return (
    <div className={compact ? 'ticket-code ticket-code--compact' : 'ticket-code'}>
      <img className="ticket-code__qr" src={qrCodeData} width={size} height={size} alt={alt} />
      <div className="ticket-code__info">
        {used ? <Badge tone="neutral">{used}</Badge> : hint && <p className="ticket-code__hint">{hint}</p>}
        <div className="ticket-code__actions">
          <a className={buttonClass('outline', 'sm')} href={qrCodeData} download={fileName} aria-label={downloadLabel}>
            Baixar ingresso (PNG)
          </a>
          {children}
        </div>
      </div>
    </div>
  );
}
