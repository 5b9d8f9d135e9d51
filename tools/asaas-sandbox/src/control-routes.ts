import type { PaymentLedger } from './payments.ts';
import type { Route, Store } from './store.ts';
import type { SandboxFaults } from './types.ts';

/**
 * `/sandbox/*`, as on Asaas's own sandbox: pay, let lapse or dispute a payment; and, for tests, set faults and let
 * held calls go on.
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
  ];
}
