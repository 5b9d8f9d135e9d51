import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useLocation } from '@ticketing/shared/router';
import {
  fromCents,
  installmentCents,
  refundReasonLabels,
  toCents,
  type AdminOrderAnswer,
  type OrderRefundView,
} from '@ticketing/proto';
import {
  Badge,
  buttonClass,
  formatBRL,
  formatDateTime,
  isApiError,
  orderStatusOf,
  Page,
  paymentMethodOf,
  Skeleton,
  useFailureToast,
} from '@ticketing/shared';
import { BackOfficeNav } from '../lib/BackOfficeNav.tsx';
import { Fact } from '../lib/Fact.tsx';
import { salesPath } from '../sales/queries.ts';
import { OrderTimeline } from './OrderTimeline.tsx';
import type { BackToSearch } from './OrderTable.tsx';
import { INVOICE_LABELS, REFUND_STATUS_LABELS } from './labels.ts';
import { adminOrderKey } from './queries.ts';
import { RefundOrder } from './RefundOrder.tsx';
import { LoadFailure } from '../lib/LoadFailure.tsx';

type AdminOrder = AdminOrderAnswer['order'];

/** While a refund's money is on its way the page asks again, so it shows when the provider gave it back. */
const REFUND_POLL_MS = 3000;

/** A refund on its way at the provider; one refused or waiting for the payer's bank account waits for a person. */
const refundOnItsWay = (refund: OrderRefundView | null | undefined) =>
  Boolean(refund?.pending) && refund?.status !== 'refused' && refund?.status !== 'awaiting_bank_details';

/** A card's installments: '3x de R$ 51,67', or 'À vista'. */
const installmentsOf = ({ installments, amount }: AdminOrder) =>
  installments > 1
    ? `${installments}x de ${formatBRL(fromCents(installmentCents(toCents(amount), installments)))}`
    : 'À vista';

/** What was paid, and, once the provider told it, what it kept and what is left. */
function Amounts({ order }: { order: AdminOrder }) {
  const net = order.netAmount;
  return (
    <>
      {order.couponCode && (
        <>
          <Fact label="Cupom">
            <span className="numeric">{order.couponCode}</span>
          </Fact>
          <Fact label="Desconto">
            <span className="numeric">− {formatBRL(order.discountAmount)}</span>
          </Fact>
        </>
      )}
      <Fact label="Valor">
        <span className="numeric">{formatBRL(order.amount)}</span>
      </Fact>
      {net !== null && (
        <>
          <Fact label="Taxas">
            <span className="numeric">{formatBRL(fromCents(toCents(order.amount) - toCents(net)))}</span>
          </Fact>
          <Fact label="Valor líquido">
            <span className="numeric">{formatBRL(net)}</span>
          </Fact>
        </>
      )}
    </>
  );
}

function Summary({ order }: { order: AdminOrder }) {
  const { refund } = order;
  return (
    <DetailCard id="order-summary" title="Pedido">
      <dl className="facts">
        <Fact label="Número">
          <span className="numeric">{order.orderNumber}</span>
        </Fact>
        <Fact label="Criado em">
          <time className="numeric" dateTime={order.createdAt}>
            {formatDateTime(order.createdAt)}
          </time>
        </Fact>
        <Fact label="Pagamento">{paymentMethodOf(order)}</Fact>
        {order.paymentMethod === 'credit_card' && <Fact label="Parcelas">{installmentsOf(order)}</Fact>}
        <Amounts order={order} />
        {order.invoice && (
          <Fact label="Nota fiscal">
            {INVOICE_LABELS[order.invoice.status]}
            {order.invoice.pdfUrl && (
              <>
                {' · '}
                <a href={order.invoice.pdfUrl} target="_blank" rel="noopener noreferrer">
                  PDF da nota fiscal
                </a>
              </>
            )}
          </Fact>
        )}
        {refund && (
          <Fact label="Devolução do valor">
            {refundReasonLabels[refund.reason]} · {REFUND_STATUS_LABELS[refund.status]}
            {refund.status === 'awaiting_bank_details' && refund.bankDetailsUrl && (
              <>
                {' · '}
                <a href={refund.bankDetailsUrl} target="_blank" rel="noopener noreferrer">
                  Link para os dados bancários
                </a>
              </>
            )}
          </Fact>
        )}
      </dl>
      <p className="order-detail__id">
        Código do pedido: <span className="numeric">{order.id}</span>
      </p>
    </DetailCard>
  );
}

function Buyer({ order }: { order: AdminOrder }) {
  const { buyer } = order;
  return (
    <DetailCard id="order-buyer" title="Comprador">
      <dl className="facts">
        <Fact label="Nome">{buyer.name}</Fact>
        <Fact label="E-mail">{buyer.email}</Fact>
        <Fact label="CPF">
          <span className="numeric">{buyer.cpf ?? '—'}</span>
        </Fact>
      </dl>
      <Link to={`/admin/pedidos?q=${encodeURIComponent(buyer.email)}`} className={buttonClass('ghost', 'sm')}>
        Outros pedidos desta pessoa
      </Link>
    </DetailCard>
  );
}

/** The company the order was bought for: the charge and the nota fiscal are made out to it. */
function Company({ company }: { company: NonNullable<AdminOrder['company']> }) {
  return (
    <DetailCard id="order-company" title="Empresa">
      <dl className="facts">
        <Fact label="Razão social">{company.name}</Fact>
        <Fact label="CNPJ">
          <span className="numeric">{company.cnpj}</span>
        </Fact>
        <Fact label="E-mail do financeiro">{company.email}</Fact>
        <Fact label="Pedido de compra">
          <span className="numeric">{company.purchaseOrder ?? '—'}</span>
        </Fact>
      </dl>
    </DetailCard>
  );
}

function Event({ order }: { order: AdminOrder }) {
  return (
    <DetailCard id="order-event" title="Evento">
      <dl className="facts">
        <Fact label="Evento">{order.event.title}</Fact>
        <Fact label="Data">
          <time className="numeric" dateTime={order.event.date}>
            {formatDateTime(order.event.date)}
          </time>
        </Fact>
        <Fact label="Local">{order.event.location}</Fact>
      </dl>
      <div className="order-detail__links">
        <Link to={salesPath(order.eventId)} className={buttonClass('ghost', 'sm')}>
          Vendas do evento
        </Link>
        <Link to={`/admin/eventos/${order.eventId}/participantes`} className={buttonClass('ghost', 'sm')}>
          Participantes
        </Link>
      </div>
    </DetailCard>
  );
}

/** One card of the order's page, named by its heading. */
function DetailCard({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section className="card order-detail__card" aria-labelledby={id}>
      <h2 id={id} className="order-detail__heading">
        {title}
      </h2>
      {children}
    </section>
  );
}

function OrderSkeleton() {
  return (
    <div className="order-detail" aria-label="Carregando pedido">
      {[0, 1, 2].map((card) => (
        <div key={card} className="card order-detail__card">
          <Skeleton />
          <Skeleton />
        </div>
      ))}
    </div>
  );
}

function OrderContent({ answer: { order, timeline } }: { answer: AdminOrderAnswer }) {
  const status = orderStatusOf(order);
  return (
    <>
      <div className="order-detail__status">
        <Badge tone={status.tone}>{status.label}</Badge>
        {order.status === 'paid' && <RefundOrder order={order} />}
      </div>
      <div className="order-detail">
        <Summary order={order} />
        <Buyer order={order} />
        {order.company && <Company company={order.company} />}
        <Event order={order} />
      </div>
      <section className="card order-detail__history" aria-labelledby="order-history">
        <h2 id="order-history" className="order-detail__heading">
          Histórico
        </h2>
        <OrderTimeline entries={timeline} />
      </section>
    </>
  );
}

/** /admin/pedidos/:id: the order, its buyer and event, what happened to it, and its refund. */
export function OrderDetail({ id }: { id: string }) {
  const back = (useLocation().state as BackToSearch | null)?.search ?? '';
  const answer = useQuery<AdminOrderAnswer>({
    queryKey: adminOrderKey(id),
    // Buyers, the provider and the door change orders too: read it again each time it opens.
    staleTime: 0,
    refetchInterval: (query) => (refundOnItsWay(query.state.data?.order.refund) ? REFUND_POLL_MS : false),
  });
  useFailureToast(answer.error, 'Erro ao carregar pedido');
  const order = answer.data?.order;

  return (
    <Page title={order ? `Pedido ${order.orderNumber}` : 'Pedido'}>
      <BackOfficeNav />
      <Link to={`/admin/pedidos${back}`} className={buttonClass('ghost', 'sm')}>
        ← Voltar para a busca
      </Link>
      {answer.isPending ? (
        <OrderSkeleton />
      ) : !answer.data ? (
        isApiError(answer.error, 404) ? (
          <div className="list-message" role="alert">
            <p>Pedido não encontrado.</p>
          </div>
        ) : (
          <LoadFailure message="Não foi possível carregar o pedido." onRetry={() => answer.refetch()} />
        )
      ) : (
        <OrderContent answer={answer.data} />
      )}
    </Page>
  );
}
