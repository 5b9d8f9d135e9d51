import { useEffect } from 'react';
import type { ParticipantView } from '@ticketing/proto';
import { formatDateTime, paymentLabel } from '@ticketing/shared';

export interface PrintedList {
  eventTitle: string;
  /** What the list was narrowed to, in words; empty for everyone. */
  narrowedTo: string;
  tickets: ParticipantView[];
  printedAt: Date;
}

/**
 * The sign-in sheet: only it is printed (the site around it is hidden on paper, and it is hidden on screen), one
 * row per ticket with a column to sign. The print dialog opens once the sheet is on the page.
 */
export function PrintSheet({ list }: { list: PrintedList }) {
  useEffect(() => {
    window.print();
  }, [list]);

  return (
    <section className="print-sheet" aria-label="Lista para impressão">
      <h2 className="print-sheet__title">Lista de participantes — {list.eventTitle}</h2>
      <p className="print-sheet__meta">
        {list.tickets.length} participante(s){list.narrowedTo && ` · ${list.narrowedTo}`} · Impresso em{' '}
        {formatDateTime(list.printedAt)}
      </p>
      <table className="print-sheet__table">
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">Nome</th>
            <th scope="col">Tipo</th>
            <th scope="col">CPF</th>
            <th scope="col">Pedido</th>
            <th scope="col">Pagamento</th>
            <th scope="col" className="print-sheet__signature">
              Assinatura
            </th>
          </tr>
        </thead>
        <tbody>
          {list.tickets.map((ticket, index) => (
            <tr key={ticket.ticketId}>
              <td>{index + 1}</td>
              <td>
                {ticket.holderName}
                {ticket.status === 'cancelled' && ' (cancelado)'}
              </td>
              <td>{ticket.ticketType?.name ?? '—'}</td>
              <td>{ticket.cpf ?? '—'}</td>
              <td>{ticket.orderNumber}</td>
              <td>{paymentLabel(ticket.paymentMethod)}</td>
              <td className="print-sheet__signature" />
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
