import { Page } from '@ticketing/shared';
import { FiscalSettingsCard } from '../finance/FiscalSettingsForm.tsx';
import { InvoiceErrors } from '../finance/InvoiceErrors.tsx';
import { RefundsAttention } from '../finance/RefundsAttention.tsx';
import { BackOfficeNav } from '../lib/BackOfficeNav.tsx';
import '../lib/admin.css';
import '../finance/finance.css';

/** /admin/financeiro: the notas fiscais' settings, the notes refused and the refunds the provider refused. */
export default function Finance() {
  return (
    <Page title="Financeiro">
      <BackOfficeNav />
      <p className="admin-lead">
        Configure a nota fiscal de serviço dos pedidos pagos e resolva as notas e os reembolsos que o provedor de
        pagamentos recusou.
      </p>
      <FiscalSettingsCard />
      <RefundsAttention />
      <InvoiceErrors />
    </Page>
  );
}
