import { toCsv } from '@ticketing/platform';
import { maskCpf, type CourtesyRedemptionsView } from '@ticketing/proto';
import type { CourtesyLink } from '../data/links-repository.ts';
import type { RedemptionRow } from '../data/report-repository.ts';

export function toRedemptionsView(
  link: CourtesyLink,
  rows: RedemptionRow[],
  page: number,
  totalPages: number,
): CourtesyRedemptionsView {
  return {
    link: {
      id: link.id,
      code: link.code,
      event: { title: link.event.title },
      promotional: link.overridePrice !== null,
      isActive: link.isActive,
      redeemed: link.usedCount,
      max: link.ticketCount,
    },
    redemptions: rows.map((row) => ({
      name: row.name,
      email: row.email,
      cpf: maskCpf(row.cpf),
      orderId: row.orderId,
      orderNumber: row.orderNumber,
      redeemedAt: row.redeemedAt.toISOString(),
    })),
    page,
    totalPages,
  };
}

/** The redemptions spreadsheet: the full CPF (it is for the provider's staff), the order's number when known. */
export function redemptionsCsv(rows: RedemptionRow[]): string {
  return toCsv(
    ['Nome', 'E-mail', 'CPF', 'Pedido', 'Resgatado em'],
    rows.map((row) => [row.name, row.email, row.cpf, row.orderNumber ?? row.orderId, row.redeemedAt]),
  );
}

export const redemptionsFileName = (link: CourtesyLink) => `cortesia-${link.code}-resgates.csv`;
