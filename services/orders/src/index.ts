export { ordersService } from './service.ts';
export { ordersConfig, type OrdersConfig } from './config.ts';
export { ordersMigrations } from './data/migrations.ts';
export { createOrder, type CreateOrderResult } from './domain/create-order.ts';
export {
  listOrders,
  cancelOrder,
  checkPaymentStatus,
  checkCooldownKey,
  ORDERS_PAGE_SIZE,
} from './domain/buyer-orders.ts';
export { expireOverdueOrders } from './domain/expire-orders.ts';
export {
  paymentConfirmed,
  paymentFailed,
  paymentOverdue,
  paymentRefunded,
  placeLatePayments,
} from './domain/payment-events.ts';
export { sendOwedRefunds } from './domain/owed-refunds.ts';
export { forgetUser } from './domain/erasure.ts';
export { paymentWindow, addBusinessDays, endOfLocalDay, localDay } from './domain/payment-window.ts';
export { lateHoldIdOf, messages, type Order, type OrdersDeps } from './domain/order.ts';
export { courtesyRedeemed } from './domain/courtesy-orders.ts';
export { courtesyClient, type CourtesyClient } from './clients/courtesy.ts';
export { identityClient, type IdentityClient } from './clients/identity.ts';
export { paymentsClient, type PaymentsClient } from './clients/payments.ts';
export { toOrderView, toPaymentView } from './http/views.ts';
