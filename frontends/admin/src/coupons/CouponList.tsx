import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { CouponListAnswer, CouponView } from '@ticketing/proto';
import { Badge, Pager, useFailureToast } from '@ticketing/shared';
import { CardTable, CardTableSkeleton } from '../lib/CardTable.tsx';
import { LoadFailure } from '../lib/LoadFailure.tsx';
import { couponStatusOf, discountLabel, usesLabel, validityLabel } from './coupon-form.ts';
import { couponPageKey } from './queries.ts';
import { ToggleCoupon } from './ToggleCoupon.tsx';

const COLUMNS = ['Código', 'Evento', 'Desconto', 'Usados de limite', 'Validade', 'Situação'] as const;

function CouponRow({ coupon }: { coupon: CouponView }) {
  const status = couponStatusOf(coupon);
  const types = coupon.ticketTypeIds.length;
  return (
    <tr>
      <th scope="row" data-label={COLUMNS[0]} className="card-table__title numeric card-table__nowrap">
        {coupon.code}
      </th>
      <td data-label={COLUMNS[1]}>{coupon.eventTitle ?? 'Todos os eventos'}</td>
      <td data-label={COLUMNS[2]} className="numeric">
        <span className="coupon-table__line">{discountLabel(coupon)}</span>
        {types > 0 && (
          <span className="coupon-table__note">
            {types === 1 ? 'Somente 1 tipo de ingresso' : `Somente ${types} tipos de ingresso`}
          </span>
        )}
      </td>
      <td data-label={COLUMNS[3]} className="numeric card-table__nowrap">
        {usesLabel(coupon)}
      </td>
      <td data-label={COLUMNS[4]} className="numeric">
        {validityLabel(coupon)}
      </td>
      <td data-label={COLUMNS[5]}>
        <div className="coupon-table__status">
          <Badge tone={status.tone}>{status.label}</Badge>
          <ToggleCoupon coupon={coupon} />
        </div>
      </td>
    </tr>
  );
}

/** The coupons, newest first, a page at a time: a table on wide screens, cards on a phone. */
export function CouponList({ page, onPageChange }: { page: number; onPageChange(page: number): void }) {
  const coupons = useQuery<CouponListAnswer>({ queryKey: couponPageKey(page), placeholderData: keepPreviousData });
  useFailureToast(coupons.error, 'Erro ao carregar cupons');
  if (coupons.isPending) return <CardTableSkeleton columns={COLUMNS} label="Carregando cupons" />;
  if (!coupons.data) {
    return (
      <LoadFailure
        message="Não foi possível carregar os cupons."
        error={coupons.error}
        onRetry={() => coupons.refetch()}
      />
    );
  }
  const answer = coupons.data;
  if (answer.coupons.length === 0) return <p className="list-message">Nenhum cupom criado ainda.</p>;
  return (
    <>
      <CardTable columns={COLUMNS} caption="Cupons" busy={coupons.isPlaceholderData}>
        {answer.coupons.map((coupon) => (
          <CouponRow key={coupon.id} coupon={coupon} />
        ))}
      </CardTable>
      <Pager page={answer.page} totalPages={answer.totalPages} onPageChange={onPageChange} />
    </>
  );
}
