import { useQuery } from '@tanstack/react-query';
import type { MyTicketView } from '@ticketing/proto';
import { SkeletonLines } from '@ticketing/shared';
import { EventFacts } from './EventFacts.tsx';
import { ListFailed } from './ListFailed.tsx';
import { TicketCode } from './TicketCode.tsx';

export const heldTicketsQueryKey = ['tickets', 'mine'] as const;

/** 'Ingressos em meu nome': tickets someone else bought for the user (their own purchases are in the orders above). */
export function HeldTickets() {
  const tickets = useQuery<MyTicketView[]>({ queryKey: heldTicketsQueryKey });
  if (tickets.isPending) {
    return <SkeletonLines lines={[{ width: '40%' }, { height: '6rem' }]} />;
  }
  if (tickets.isError) {
    return (
      <ListFailed
        title="Não foi possível carregar os ingressos em seu nome."
        error={tickets.error}
        retry={() => tickets.refetch()}
      />
    );
  }
  const given = tickets.data.filter((ticket) => ticket.boughtBy !== null);
  if (given.length === 0) return null;
  return (
    <section className="held-tickets" aria-labelledby="ingressos-em-meu-nome">
      <h2 id="ingressos-em-meu-nome" className="held-tickets__title">
        Ingressos em meu nome
      </h2>
      <ul className="bare-list orders-list">
        {given.map((ticket) => (
          <li key={ticket.ticketId}>
            <HeldTicket ticket={ticket} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function HeldTicket({ ticket }: { ticket: MyTicketView }) {
  return (
    <article className="order-card card" aria-label={ticket.event.title}>
      <p className="order-card__number numeric">Pedido nº {ticket.orderNumber}</p>
      <h3 className="order-card__title">{ticket.event.title}</h3>
      <dl className="facts">
        <EventFacts event={ticket.event} />
        {ticket.ticketType && (
          <div>
            <dt>Ingresso</dt>
            <dd>{ticket.ticketType.name}</dd>
          </div>
        )}
        <div>
          <dt>Comprado por</dt>
          <dd>{ticket.boughtBy}</dd>
        </div>
      </dl>
      <TicketCode
        qrCodeData={ticket.qrCodeData}
        alt={`QR Code do seu ingresso para ${ticket.event.title}`}
        fileName={`ingresso-${ticket.orderNumber}-${ticket.ticketId.slice(0, 8)}.png`}
        used={ticket.used ? 'Utilizado' : null}
        hint={`Apresente este QR Code na entrada do evento${ticket.ticketType?.requiresDocument ? ', com um documento com foto.' : '.'}`}
      />
    </article>
  );
}
