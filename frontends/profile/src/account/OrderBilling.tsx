import type { OrderView } from '@ticketing/proto';
import { buttonClass, formatBRL } from '@ticketing/shared';

/**
 * Whom the order was billed to and how: the company it was bought for, the coupon and what it took off, and the nota
 * fiscal once the city authorized it ('Nota fiscal em emissão' meanwhile; a failed one is the organisers' to solve).
 */
export function OrderBilling({ order }: { order: OrderView }) {
  const { company, couponCode, invoice } = order;
  const invoiceUrl = invoice?.status === 'authorized' ? invoice.pdfUrl : null;
  const issuing = invoice?.status === 'scheduled';
  if (!company && !couponCode && !invoiceUrl && !issuing) return null;
  return (
    <div className="stack order-billing">
      {company && (
        <p>
          Empresa: {company.name} (CNPJ {company.cnpj})
          {company.purchaseOrder && (
            <span className="order-billing__po"> · Pedido de compra {company.purchaseOrder}</span>
          )}
        </p>
      )}
      {couponCode && (
        <p className="numeric">
          Cupom {couponCode}: − {formatBRL(order.discountAmount)}
        </p>
      )}
      {invoiceUrl && (
        <a className={buttonClass('outline', 'md')} href={invoiceUrl} target="_blank" rel="noopener noreferrer">
          Nota fiscal
        </a>
      )}
      {issuing && (
        <p className="order-billing__issuing" role="status">
          Nota fiscal em emissão
        </p>
      )}
    </div>
  );
}
