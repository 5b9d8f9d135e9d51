import { Router } from '@koa/router';
import { parseInput, requireAdmin, type AuthUser, type TokenVerifier } from '@ticketing/platform';
import {
  fiscalSettingsSchema,
  invoiceListQuerySchema,
  type FiscalSettingsAnswer,
  type InvoiceListAnswer,
} from '@ticketing/proto';
import type { StoredFiscalSettings } from '../data/fiscal-settings-repository.ts';
import type { PaymentsDeps } from '../domain/charge.ts';
import { changeFiscalSettings, fiscalSettings } from '../domain/fiscal-settings.ts';
import { invoicesIn } from '../domain/invoices.ts';
import { toInvoiceRow } from './views.ts';

const toSettingsAnswer = (settings: StoredFiscalSettings | undefined): FiscalSettingsAnswer => ({
  settings: settings ? { ...settings, updatedAt: settings.updatedAt.toISOString() } : null,
});

/** The back office's fiscal settings and notas fiscais, routed by the gateway under /api/payments; administrators only. */
export function adminRoutes(deps: PaymentsDeps, verifyToken: TokenVerifier): Router {
  const router = new Router({ prefix: '/api/payments' });
  const admin = requireAdmin(verifyToken);

  router.get('/fiscal-settings', admin, async (ctx) => {
    ctx.body = toSettingsAnswer(await fiscalSettings(deps));
  });

  router.put('/fiscal-settings', admin, async (ctx) => {
    const settings = parseInput(fiscalSettingsSchema, ctx.request.body);
    const user = ctx.state.user as AuthUser;
    ctx.body = toSettingsAnswer(await changeFiscalSettings(deps, settings, user.id));
  });

  router.get('/invoices', admin, async (ctx) => {
    const { status } = parseInput(invoiceListQuerySchema, ctx.query);
    ctx.body = { invoices: (await invoicesIn(deps, status)).map(toInvoiceRow) } satisfies InvoiceListAnswer;
  });

  return router;
}
