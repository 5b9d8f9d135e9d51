import type { PaymentLedger } from './payments.ts';
import type { Route, Store } from './store.ts';
import type { SandboxFaults } from './types.ts';

/** A description sent to a control, or the one it uses when none is. */
const description = (body: Record<string, unknown>, otherwise: string) =>
  typeof body.description === 'string' && body.description.trim() ? body.description.trim() : otherwise;

/**
 * `/sandbox/*`, as on Asaas's own sandbox: pay, let lapse or dispute a payment; and, for tests, set faults, let
 * held calls go on, have the provider refuse refunds, or the city refuse the next notas fiscais.
 */
export function controlRoutes(store: Store, ledger: PaymentLedger, heldCalls: { release(): number }): Route[] {
  const { faults } = store;
  return [
    ['POST', /^\/sandbox\/payment\/([^/]+)\/confirm$/, ([id]) => ledger.confirm(id!)],
    ['POST', /^\/sandbox\/payment\/([^/]+)\/overdue$/, ([id]) => ledger.overdue(id!)],
    ['POST', /^\/sandbox\/payment\/([^/]+)\/chargeback$/, ([id]) => ledger.chargeback(id!)],
    ['POST', /^\/sandbox\/release$/, () => ({ released: heldCalls.release() })],
    ['GET', /^\/sandbox\/faults$/, () => faults],
    [
      'POST',
      /^\/sandbox\/faults$/,
      (_, __, body) => {
        const { webhookCopies, reorderNext, webhookDelayMs, api } = body as Partial<SandboxFaults>;
        if (typeof webhookCopies === 'number') faults.webhookCopies = webhookCopies;
        if (typeof reorderNext === 'number') faults.reorderNext = reorderNext;
        if (typeof webhookDelayMs === 'number') faults.webhookDelayMs = webhookDelayMs;
        if (Array.isArray(api)) faults.api.push(...api);
        return faults;
      },
    ],
    [
      'POST',
      /^\/sandbox\/refund-refusal$/,
      (_, __, body) => {
        faults.refundRefusal = description(body, 'Saldo insuficiente para realizar o estorno.');
        return faults;
      },
    ],
    [
      'DELETE',
      /^\/sandbox\/refund-refusal$/,
      () => {
        faults.refundRefusal = null;
        return faults;
      },
    ],
    [
      'POST',
      /^\/sandbox\/invoice-errors$/,
      (_, __, body) => {
        faults.invoiceErrors.push(description(body, 'A prefeitura recusou a nota fiscal.'));
        return faults;
      },
    ],
    [
      'DELETE',
      /^\/sandbox\/invoice-errors$/,
      () => {
        faults.invoiceErrors.length = 0;
        return faults;
      },
    ],
  ];
}
