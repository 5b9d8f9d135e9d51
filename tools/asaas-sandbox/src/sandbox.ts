/**
 * A local stand-in for the Asaas API v3: the subset the payments service uses, kept in memory, with the same
 * shapes, errors and webhooks (header `asaas-access-token`, retried with the provider's growing gaps until a
 * 200). Tests drive it directly (`confirm`, `overdue`, `chargeback`, `faults`, `release`); people drive it through
 * its HTML pages or `POST /v3/sandbox/payment/:id/confirm|overdue|chargeback`, as on Asaas's own sandbox, and the
 * provider's refusals through `/v3/sandbox/refund-refusal` and `/v3/sandbox/invoice-errors`.
 */
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { qrCodePng } from '@ticketing/platform';
import { apiHandler, heldCalls, sendJson } from './api.ts';
import { errorBody } from './api-error.ts';
import { controlRoutes } from './control-routes.ts';
import { customerRoutes } from './customers.ts';
import { installmentBook, installmentRoutes } from './installments.ts';
import { invoiceDocuments } from './invoice-documents.ts';
import { invoiceRoutes } from './invoices.ts';
import { pageHandler, type PageHandler } from './pages.ts';
import { paymentRoutes } from './payment-routes.ts';
import { paymentLedger } from './payments.ts';
import { bankSlipRefundPage } from './refund-page.ts';
import { refundRoutes } from './refunds.ts';
import { emptyStore } from './store.ts';
import type { Sandbox, SandboxOptions } from './types.ts';
import { webhooks } from './webhooks.ts';

export type * from './types.ts';

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const host = options.host ?? '127.0.0.1';
  const store = emptyStore(options.publicUrl ?? '');
  const closing = new AbortController();
  const hooks = webhooks(store, options, closing.signal);
  const ledger = paymentLedger(store, hooks, options.bankCode ?? '461');
  const installments = installmentBook(store, ledger);
  const held = heldCalls();
  const handleApi = apiHandler(
    store,
    [
      ...customerRoutes(store),
      ...paymentRoutes(store, ledger, installments, {
        pixKey: options.pixKey ?? '7d9f0335-8dcc-4054-9bf9-0dbd61d36906',
        merchantName: options.merchantName ?? 'Educacao Farma',
        merchantCity: options.merchantCity ?? 'Sao Paulo',
      }),
      ...installmentRoutes(installments),
      ...refundRoutes(store, ledger, installments),
      ...invoiceRoutes(store, hooks, { delayMs: options.invoiceDelayMs ?? 2000, closing: closing.signal }),
      ...controlRoutes(store, ledger, held),
    ],
    held,
    { apiKey: options.apiKey, closing: closing.signal },
  );
  /** The pages outside the API, by the start of their path; the invoice and boleto pages take the rest. */
  const pages: [prefix: string, handler: PageHandler][] = [
    ['/estorno-boleto/', bankSlipRefundPage(store, ledger)],
    ['/nfse/', invoiceDocuments(store)],
  ];
  const handlePage = pageHandler(store, ledger);

  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://sandbox');
    // What the image's HEALTHCHECK asks, as of every app's image.
    if (url.pathname === '/healthz') return sendJson(res, 200, { status: 'ok' });
    const page = pages.find(([prefix]) => url.pathname.startsWith(prefix))?.[1] ?? handlePage;
    const work =
      url.pathname === '/v3' || url.pathname.startsWith('/v3/') ? handleApi(req, res, url) : page(req, res, url);
    work.catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, errorBody('internal_error', String(error)));
    });
  });
  // Callers keep idle connections for the time the server announces (5 s by default). When a caller's busy moment
  // outlasts it, the next call reuses the socket just as the server's timer closes it, and is reset: a long timeout
  // keeps that from happening (close() destroys the sockets anyway).
  server.keepAliveTimeout = 60_000;
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  qrCodePng('warm-up'); // loads the QR encoder now rather than in the first API call
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(options.port ?? 0, host, resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://${host}:${port}`;
  if (!store.publicUrl) store.publicUrl = url;

  return {
    url,
    apiUrl: `${url}/v3`,
    faults: store.faults,
    webhook: hooks.target,
    requests: store.requests,
    notifications: store.notifications,
    invoiceNotifications: store.invoiceNotifications,
    deliveries: store.deliveries,
    customers: store.customers,
    payments: store.payments,
    installments: store.installments,
    invoices: store.invoices,
    get pendingWebhooks() {
      return hooks.pending;
    },
    get heldCalls() {
      return held.count;
    },
    release: () => void held.release(),
    confirm: ledger.confirm,
    overdue: ledger.overdue,
    chargeback: ledger.chargeback,
    async close() {
      closing.abort();
      held.release();
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
