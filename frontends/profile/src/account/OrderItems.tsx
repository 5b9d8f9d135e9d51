import type { ReactNode } from 'react';
import type { OrderItemView, OrderView } from '@ticketing/proto';
import { formatBRL } from '@ticketing/shared';
import { ChangeHolder } from './ChangeHolder.tsx';
import { itemFileName } from './order-labels.ts';
import { TicketCode } from './TicketCode.tsx';

/**
 * The order's tickets: type (and lot), holder, and the price of each when there are several (the card's 'Valor' is
 * the total, with the fees). A paid order of several shows each ticket's QR code to download; one the buyer may still
 * hand over offers 'Trocar titular'.
 */
export function OrderItems({ order }: { order: OrderView }) {
  const issued = order.status === 'paid' && !order.withdrawalRequestedAt;
  // One ticket's QR code is the order's, shown below the card as it always was.
  const several = order.items.length > 1;
  return (
    <section className="order-items" aria-label={`Ingressos do pedido nº ${order.orderNumber}`}>
      <ul className="bare-list stack order-items__list">
        {order.items.map((item) => (
          <li key={item.index} className="stack order-item">
            <div className="order-item__line">
              <span className="order-item__type">
                {item.typeName}
                {item.lotName && <span className="order-item__lot"> · {item.lotName}</span>}
              </span>
              <span className="order-item__holder">
                {item.holderName} <span className="order-item__email">{item.holderEmail}</span>
              </span>
              {several && <span className="order-item__price numeric">{formatBRL(item.price)}</span>}
            </div>
            {issued &&
              (several ? (
                <ItemTicket orderNumber={order.orderNumber} item={item}>
                  {item.canChangeHolder && <ChangeHolder order={order} item={item} />}
                </ItemTicket>
              ) : (
                item.canChangeHolder && (
                  <div className="stack order-item__actions">
                    <ChangeHolder order={order} item={item} />
                  </div>
                )
              ))}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** One ticket of a paid order of several: its QR code, whether it was used, its PNG, and what else it offers. */
function ItemTicket({
  orderNumber,
  item,
  children,
}: {
  orderNumber: string;
  item: OrderItemView;
  children: ReactNode;
}) {
  const number = item.index + 1;
  if (!item.qrCodeData) {
    return (
      <div className="stack order-item__actions">
        <p className="order-item__pending" role="status">
          Este ingresso está sendo emitido e também chegará por e-mail ao titular.
        </p>
        {children}
      </div>
    );
  }
  return (
    <TicketCode
      compact
      qrCodeData={item.qrCodeData}
      alt={`QR Code do ingresso ${number} do pedido nº ${orderNumber}`}
      fileName={itemFileName(orderNumber, item.index)}
      downloadLabel={`Baixar ingresso ${number} (PNG)`}
      used={item.qrCodeUsed ? 'Utilizado' : null}
    >
      {children}
    </TicketCode>
  );
}
