import { AppError, type CatalogClient } from '@ticketing/platform';
import { messages, type CourtesyDeps } from './deps.ts';

/** Asks the catalog about an event: unknown or cancelled is answered in the catalog's words, no answer is a 503. */
export async function askCatalog<T>(
  deps: Pick<CourtesyDeps, 'catalog' | 'logger'>,
  eventId: string,
  ask: (catalog: CatalogClient) => Promise<T>,
): Promise<T> {
  try {
    return await ask(deps.catalog);
  } catch (error) {
    if (error instanceof AppError) throw error;
    deps.logger.warn({ err: error, eventId }, 'catalog unavailable');
    throw new AppError(503, messages.serviceUnavailable);
  }
}
