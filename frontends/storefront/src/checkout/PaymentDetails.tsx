import { useId } from 'react';
import { fromCents, installmentCents, toCents, type OrderView } from '@ticketing/proto';
import { Button, buttonClass, copyText, formatBRL, formatShortDate, formatTime, toast } from '@ticketing/shared';
import type { OrderAnswer, PaymentMethod } from './types.ts';

interface PaymentDetailsProps {
  answer: OrderAnswer;
  /** The method chosen in this dialog: the server answers an earlier pending order of the same event instead. */
  chosen: PaymentMethod;
  onDone(): void;
}

/** How to pay the order just made: the PIX code, the boleto, or the card payment link sent by e-mail. */
export function PaymentDetails({ answer, chosen, onDone }: PaymentDetailsProps) {
  const { order, payment } = answer;
  return (
    <div className="payment">
      <p className="payment__order numeric">
        Pedido <strong>{order.orderNumber}</strong> · Total <strong>{formatBRL(order.amount)}</strong>
      </p>
      {order.company && (
        <p className="payment__hint">
          Cobrança em nome de {order.company.name} (CNPJ {order.company.cnpj}), enviada também para{' '}
          {order.company.email}.
        </p>
      )}
      {order.paymentMethod !== chosen && (
        <p className="payment__notice" role="note">
          Você já tinha um pedido aguardando pagamento para este evento: estes são os dados para pagá-lo.
        </p>
      )}
      {order.paymentMethod === 'pix' && (
        <PixPayment qrCode={payment.pixQrCode} payload={payment.pixPayload} expiresAt={payment.expiresAt} />
      )}
      {order.paymentMethod === 'boleto' && <BoletoPayment url={payment.boletoUrl} dueAt={payment.expiresAt} />}
      {order.paymentMethod === 'credit_card' && (
        <CardPayment order={order} url={payment.invoiceUrl} expiresAt={payment.expiresAt} />
      )}
      <Button variant="primary" size="lg" block onClick={onDone}>
        Concluir
      </Button>
    </div>
  );
}

interface PixPaymentProps {
  qrCode: string | null;
  payload: string | null;
  expiresAt: string;
}

function PixPayment({ qrCode, payload, expiresAt }: PixPaymentProps) {
  const codeId = useId();
  async function copy() {
    if (!payload) return;
    if (await copyText(payload)) {
      toast({ title: 'Copiado!', description: 'Código PIX copiado para a área de transferência.' });
    } else {
      toast({
        title: 'Erro ao copiar',
        description: 'Não foi possível copiar o código. Selecione o código e copie manualmente.',
        variant: 'destructive',
      });
    }
  }
  return (
    <div className="payment__method">
      {/* The provider sends the QR code as a base64 PNG, without the data: prefix. */}
      {qrCode && (
        <img
          className="payment__qr"
          src={`data:image/png;base64,${qrCode}`}
          alt="QR Code PIX"
          width={220}
          height={220}
        />
      )}
      <p>Abra o app do seu banco, escolha pagar com PIX e escaneie o QR Code ou use o código copia e cola.</p>
      {payload && (
        <div className="payment__copy">
          <label htmlFor={codeId} className="field__label">
            PIX copia e cola
          </label>
          <div className="payment__copy-row">
            <input id={codeId} className="field__input" value={payload} readOnly onFocus={(e) => e.target.select()} />
            <Button variant="outline" onClick={copy}>
              Copiar código
            </Button>
          </div>
        </div>
      )}
      <p className="payment__hint">
        O código PIX expira às{' '}
        <time className="numeric" dateTime={expiresAt}>
          {formatTime(expiresAt)}
        </time>
        .
      </p>
    </div>
  );
}

function BoletoPayment({ url, dueAt }: { url: string | null; dueAt: string }) {
  return (
    <div className="payment__method">
      <p>
        Vencimento: <strong className="numeric">{formatShortDate(dueAt)}</strong>
      </p>
      <p className="payment__hint">
        Pague até o vencimento. Seu ingresso é enviado por e-mail assim que o pagamento for compensado.
      </p>
      {url && (
        <a className={buttonClass('accent', 'md', true)} href={url} target="_blank" rel="noopener noreferrer">
          Abrir boleto
        </a>
      )}
    </div>
  );
}

interface CardPaymentProps {
  order: OrderView;
  url: string | null;
  expiresAt: string;
}

function CardPayment({ order, url, expiresAt }: CardPaymentProps) {
  return (
    <div className="payment__method">
      <p>
        Enviamos o link de pagamento com cartão de crédito para o{' '}
        {order.company ? 'e-mail do financeiro' : 'seu e-mail'}.
      </p>
      {order.installments > 1 && (
        <p className="numeric">
          Em {order.installments}x de{' '}
          {formatBRL(fromCents(installmentCents(toCents(order.amount), order.installments)))} no cartão.
        </p>
      )}
      <p className="payment__hint">
        O pedido fica reservado até{' '}
        <time className="numeric" dateTime={expiresAt}>
          {formatShortDate(expiresAt)} às {formatTime(expiresAt)}
        </time>
        . Seu ingresso é enviado por e-mail assim que o pagamento for aprovado.
      </p>
      {url && (
        <a className={buttonClass('accent', 'md', true)} href={url} target="_blank" rel="noopener noreferrer">
          Pagar com cartão agora
        </a>
      )}
    </div>
  );
}
