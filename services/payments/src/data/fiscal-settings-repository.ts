import type { Knex } from '@ticketing/platform';
import type { FiscalSettings } from '@ticketing/proto';

interface FiscalSettingsRow {
  id: number;
  enabled: boolean;
  service_description: string;
  municipal_service_code: string | null;
  municipal_service_id: string | null;
  municipal_service_name: string | null;
  iss_rate: string;
  deductions: string;
  retain_iss: boolean;
  updated_at: Date;
}

export type StoredFiscalSettings = FiscalSettings & { updatedAt: Date };

const toSettings = (row: FiscalSettingsRow): StoredFiscalSettings => ({
  enabled: row.enabled,
  serviceDescription: row.service_description,
  municipalServiceCode: row.municipal_service_code,
  municipalServiceId: row.municipal_service_id,
  municipalServiceName: row.municipal_service_name,
  // A percentage with up to four places, never money.
  issRate: Number(row.iss_rate),
  deductions: row.deductions,
  retainIss: row.retain_iss,
  updatedAt: row.updated_at,
});

/** The settings in force; undefined before they are first saved. */
export async function readFiscalSettings(db: Knex): Promise<StoredFiscalSettings | undefined> {
  const row = (await db<FiscalSettingsRow>('fiscal_settings').where({ id: 1 }).first()) as
    FiscalSettingsRow | undefined;
  return row && toSettings(row);
}

export async function saveFiscalSettings(db: Knex, settings: FiscalSettings): Promise<StoredFiscalSettings> {
  const fields = {
    enabled: settings.enabled,
    service_description: settings.serviceDescription,
    municipal_service_code: settings.municipalServiceCode,
    municipal_service_id: settings.municipalServiceId,
    municipal_service_name: settings.municipalServiceName,
    iss_rate: String(settings.issRate),
    deductions: settings.deductions,
    retain_iss: settings.retainIss,
    updated_at: db.fn.now() as unknown as Date,
  };
  const [row] = (await db<FiscalSettingsRow>('fiscal_settings')
    .insert({ id: 1, ...fields })
    .onConflict('id')
    .merge(fields)
    .returning('*')) as FiscalSettingsRow[];
  return toSettings(row!);
}
