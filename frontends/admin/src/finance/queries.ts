/** The nota fiscal settings in force (`GET|PUT /api/payments/fiscal-settings`). */
export const FISCAL_SETTINGS_KEY = ['payments', 'fiscal-settings'] as const;

/** Notas fiscais the city or the provider refused (`GET /api/payments/invoices?status=error`). */
export const INVOICE_ERRORS_KEY = ['payments', 'invoices', { status: 'error' }] as const;

/** Refunds the provider refused, waiting for an administrator (`GET /api/admin/refunds`). */
export const REFUNDS_ATTENTION_KEY = ['admin', 'refunds'] as const;
