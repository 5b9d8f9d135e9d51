import type { OrderView, PaymentView } from '@ticketing/proto';
import { buttonClass } from '@ticketing/shared';
import { CopyCode } from './CopyCode.tsx';

/** How to pay a pending order, by its method: the PIX QR code and code, the boleto's line and PDF, or the card's page. */
export function OrderPayment({ order, payment }: { order: OrderView; payment: PaymentView }) {
  if (order.paymentMethod === 'pix' && payment.pixPayload) {
    return (
      <div className="wrap-row order-payment">
        {/* The provider sends the QR code as a base64 PNG, without the data: prefix. */}
        {payment.pixQrCode && (
          <img
            className="order-payment__qr"
            src={`data:image/png;base64,${payment.pixQrCode}`}
            width={176}
            height={176}
            alt={`QR Code PIX do pedido nº ${order.orderNumber}`}
          />
        )}
        <div className="order-payment__info">
          <p>Abra o app do seu banco, escolha pagar com PIX e escaneie o QR Code ou use o código copia e cola.</p>
          <CopyCode
            label="PIX copia e cola"
            code={payment.pixPayload}
            action="Copiar código"
            copied="Código PIX copiado para a área de transferência."
          />
        </div>
      </div>
    );
  }
  if (order.paymentMethod === 'boleto' && payment.boletoUrl) {
    return (
      <div className="order-payment__info">
        <p>Pague pelo app do seu banco com a linha digitável ou baixe o boleto para pagar onde preferir.</p>
        {payment.boletoLine && (
          <CopyCode
            label="Linha digitável"
            code={payment.boletoLine}
            action="Copiar linha"
            copied="Linha digitável copiada para a área de transferência."
          />
        )}
        <a className={buttonClass('accent', 'sm')} href={payment.boletoUrl} target="_blank" rel="noopener noreferrer">
          Baixar boleto (PDF)
        </a>
      </div>
    );
  }
  if (order.paymentMethod === 'credit_card' && payment.invoiceUrl) {
    return (
      <div className="order-payment__info">
        <p>Pague com cartão de crédito na página segura do pagamento; o link também foi enviado para o seu e-mail.</p>
        <a className={buttonClass('accent', 'sm')} href={payment.invoiceUrl} target="_blank" rel="noopener noreferrer">
          Pagar com cartão
        </a>
      </div>
    );
  }
  return null;
}
