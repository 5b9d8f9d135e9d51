import { useId } from 'react';
import type { OrderView } from '@ticketing/proto';
import { Badge, formatBRL, formatDateTime, orderStatusOf, paymentMethodOf } from '@ticketing/shared';
import { EventFacts } from './EventFacts.tsx';
import { OrderBilling } from './OrderBilling.tsx';
import { OrderItems } from './OrderItems.tsx';
import { installmentsLabel } from './order-labels.ts';
import { OrderPayment } from './OrderPayment.tsx';
import { OrderRefund, WithdrawalInReview } from './OrderRefund.tsx';
import { OrderTicket } from './OrderTicket.tsx';
import { PendingOrderActions } from './PendingOrderActions.tsx';
import { WithdrawOrder } from './WithdrawOrder.tsx';

export function OrderCard({ order, isAdmin }: { order: OrderView; isAdmin: boolean }) {
  const titleId = useId();
  const status = orderStatusOf(order);
  return (
    <article className="order-card card" aria-labelledby={titleId}>
      <header className="wrap-row order-card__head">
        <div>
          <p className="order-card__number numeric">Pedido nº {order.orderNumber}</p>
          <h2 id={titleId} className="order-card__title">
            {order.event.title}
          </h2>
        </div>
        <Badge tone={status.tone}>{status.label}</Badge>
      </header>
      <dl className="facts">
        <EventFacts event={order.event} />
        <div>
          <dt>Valor</dt>
          <dd className="numeric">{formatBRL(order.totalAmount)}</dd>
        </div>
        <div>
          <dt>Pagamento</dt>
          <dd>{installmentsLabel(order) ?? paymentMethodOf(order)}</dd>
        </div>
      </dl>
      <OrderBilling order={order} />
      {order.items.length > 0 && <OrderItems order={order} />}
      {order.payment && (
        <div className="order-card__pending">
          <p className="order-card__deadline numeric">
            Pague até {formatDateTime(order.payment.expiresAt)} para garantir sua vaga.
          </p>
          <OrderPayment order={order} payment={order.payment} />
          <PendingOrderActions order={order} />
        </div>
      )}
      {/* A ticket being cancelled for a withdrawal is not offered; an order of several shows each with its line. */}
      {order.status === 'paid' && !order.withdrawalRequestedAt && order.items.length <= 1 && (
        <OrderTicket order={order} isAdmin={isAdmin} />
      )}
      {order.canWithdraw && (
        <div className="order-card__actions">
          <WithdrawOrder order={order} />
        </div>
      )}
      {order.withdrawalRequestedAt && <WithdrawalInReview order={order} requestedAt={order.withdrawalRequestedAt} />}
      {order.refund && <OrderRefund order={order} refund={order.refund} />}
    </article>
  );
}
