import type { FiscalSettings } from '@ticketing/proto';
import {
  readFiscalSettings,
  saveFiscalSettings,
  type StoredFiscalSettings,
} from '../data/fiscal-settings-repository.ts';
import type { PaymentsDeps } from './charge.ts';

/** The settings every nota fiscal is asked with; undefined before an administrator first saves them. */
export const fiscalSettings = (deps: PaymentsDeps) => readFiscalSettings(deps.db);

/** An administrator's settings, in force for the notes of orders paid from now on. */
export async function changeFiscalSettings(
  deps: PaymentsDeps,
  settings: FiscalSettings,
  adminId: string,
): Promise<StoredFiscalSettings> {
  const saved = await saveFiscalSettings(deps.db, settings);
  deps.logger.info({ adminId, enabled: saved.enabled, issRate: saved.issRate }, 'fiscal settings changed');
  return saved;
}
