import type { EventStatus } from '@ticketing/proto';
import type { BadgeTone } from '@ticketing/shared';

/** How the back office names and colours each status: a draft is pending (yellow), sold out and cancelled are red. */
export const STATUS_BADGES: Record<EventStatus, { label: string; tone: BadgeTone }> = {
  rascunho: { label: 'Rascunho', tone: 'warning' },
  publicado: { label: 'Publicado', tone: 'success' },
  nao_listado: { label: 'Não listado', tone: 'brand' },
  encerrado: { label: 'Encerrado', tone: 'neutral' },
  esgotado: { label: 'Esgotado', tone: 'danger' },
  cancelado: { label: 'Cancelado', tone: 'danger' },
};
