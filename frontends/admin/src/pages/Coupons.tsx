import { Page } from '@ticketing/shared';
import { CouponList } from '../coupons/CouponList.tsx';
import { CreateCouponCard } from '../coupons/CreateCouponCard.tsx';
import { BackOfficeNav } from '../lib/BackOfficeNav.tsx';
import { useUrlSearch } from '../lib/useUrlSearch.ts';
import '../lib/admin.css';
import '../coupons/coupons.css';

/** /admin/cupons: create discount coupons and follow how many orders used each, turning them off or on. */
export default function Coupons() {
  const { page, go } = useUrlSearch();
  return (
    <Page title="Cupons">
      <BackOfficeNav />
      <p className="admin-lead">
        Crie cupons de desconto para um evento ou para todos, com limite de usos e validade, e acompanhe quantas vezes
        cada um foi usado.
      </p>
      <CreateCouponCard onCreated={() => go({ page: 1 })} />
      <section aria-labelledby="coupons-title">
        <h2 id="coupons-title" className="coupons__list-title">
          Cupons criados
        </h2>
        <CouponList page={page} onPageChange={(next) => go({ page: next })} />
      </section>
    </Page>
  );
}
