import { captureLogs, waitFor } from '@ticketing/testkit';
import { startOtlpReceiver, type ReceivedSpan } from '../../scripts/lib/otlp-receiver.ts';
import { adminEvent, startSystem, verifiedBuyer } from '../../scripts/lib/system.ts';

const SERVER = 2;
const CLIENT = 3;
const PRODUCER = 4;
const CONSUMER = 5;

let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
let system: Awaited<ReturnType<typeof startSystem>>;
const logs = captureLogs();
beforeAll(async () => {
  receiver = await startOtlpReceiver();
  system = await startSystem({
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_BSP_SCHEDULE_DELAY: '50', LOG_LEVEL: 'info' },
    logStream: logs.stream,
  });
});
afterAll(async () => {
  await system.stop();
  await receiver.close();
});

/** The trace's spans once `last` and every parent have arrived. */
function completeTrace(traceId: string, last: string): ReceivedSpan[] | undefined {
  const spans = receiver.spans.filter((span) => span.traceId === traceId);
  const ids = new Set(spans.map((span) => span.spanId));
  const whole = spans.every((span) => span.parentSpanId === '' || ids.has(span.parentSpanId));
  return ids.has(last) && whole ? spans : undefined;
}

test('one order is one trace: from POST /api/orders through the payment, the bus and the tickets to the e-mail', async () => {
  const { call, sandbox, mailTo } = system;
  const { eventId } = await adminEvent(system, { maxAttendees: 10 });
  const buyer = await verifiedBuyer(system);

  const bought = await call('POST', '/api/orders', { token: buyer.token, body: { eventId, paymentMethod: 'pix' } });
  expect(bought.status).toBe(201);
  const { id: orderId, asaasPaymentId } = bought.body.order;
  sandbox.confirm(asaasPaymentId);
  const { subject } = await mailTo(buyer.email, 'Seu ingresso: Workshop de Farmácia Clínica');
  // Mail's row and log line for that e-mail name the trace and the span of its delivery.
  const stored = await waitFor(() =>
    system.mail!.db('email_queue').where({ order_id: orderId, subject, status: 'sent' }).first(),
  );
  const sent = await waitFor(() =>
    logs.lines.find((line) => line.service === 'mail' && line.msg === 'e-mail sent' && line.emailId === stored.id),
  );

  // The trace the gateway started for the purchase: its server span is the root.
  const root = await waitFor(() =>
    receiver.spans.find(
      (span) => span.service === 'gateway' && span.kind === SERVER && span.name === 'POST /api → orders',
    ),
  );
  expect(root.parentSpanId).toBe('');
  expect(sent.trace_id).toBe(root.traceId);
  expect(stored.traceparent).toContain(root.traceId);
  const spans = await waitFor(() => completeTrace(root.traceId, sent.span_id as string));
  const has = (service: string, kind: number, name: string) =>
    spans.some((span) => span.service === service && span.kind === kind && span.name === name);

  // The request: gateway → orders → catalog (the hold) and payments → the provider.
  expect(has('gateway', CLIENT, 'POST orders')).toBe(true);
  expect(has('orders', SERVER, 'POST /api/orders')).toBe(true);
  expect(has('orders', CLIENT, 'PUT catalog')).toBe(true);
  expect(has('orders', CLIENT, 'PUT payments')).toBe(true);
  expect(spans.some((span) => span.service === 'catalog' && span.kind === SERVER)).toBe(true);
  expect(spans.some((span) => span.service === 'payments' && span.kind === SERVER)).toBe(true);
  expect(has('payments', CLIENT, 'POST asaas')).toBe(true);
  // The provider's webhook is a request of its own, linked from where the sale's trace goes on.
  const notice = spans.find((span) => span.service === 'payments' && span.name === 'payment notice applied')!;
  expect(notice).toBeDefined();
  const webhook = receiver.spans.find((span) => span.spanId === notice.links[0]?.spanId);
  expect(webhook).toMatchObject({ service: 'payments', kind: SERVER, name: expect.stringContaining('webhook') });
  expect(webhook!.traceId).not.toBe(root.traceId);
  // The bus: each event's producer span is the parent of its consumers' spans.
  for (const [producer, type, consumer] of [
    ['payments', 'payment.confirmed', 'orders'],
    ['orders', 'order.paid', 'tickets-worker'],
    ['tickets-worker', 'ticket.issued', 'mail'],
  ] as const) {
    const published = spans.find(
      (span) => span.service === producer && span.kind === PRODUCER && span.name === `publish ${type}`,
    );
    expect(published).toBeDefined();
    const processed = spans.filter((span) => span.kind === CONSUMER && span.name === `process ${type}`);
    expect(processed.map((span) => span.service)).toContain(consumer);
    for (const span of processed) expect(span.parentSpanId).toBe(published!.spanId);
  }
  // The ticket e-mail's delivery continues the trace of the event that queued it; the purchase is the only root.
  const delivery = spans.find((span) => span.spanId === sent.span_id)!;
  expect(delivery).toMatchObject({ service: 'mail', kind: CLIENT, name: 'smtp send' });
  const queuedBy = spans.find((span) => span.spanId === delivery.parentSpanId);
  expect(queuedBy).toMatchObject({ service: 'mail', kind: CONSUMER, name: 'process ticket.issued' });
  expect(spans.filter((span) => span.parentSpanId === '')).toEqual([root]);
});
