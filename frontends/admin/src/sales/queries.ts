/** Every sales-figures query starts with this key; its path is `/admin/sales`. */
export const SALES_KEY = ['admin', 'sales'] as const;

/** One event's figures, or every event's when `eventId` is empty. */
export const salesKey = (eventId: string) => [...SALES_KEY, { eventId: eventId || undefined }] as const;

/** The Vendas page of one event, or of every event. */
export const salesPath = (eventId?: string) =>
  eventId ? `/admin/vendas?eventId=${encodeURIComponent(eventId)}` : '/admin/vendas';
