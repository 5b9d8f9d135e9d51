export { courtesyService } from './service.ts';
export { courtesyConfig, type CourtesyConfig } from './config.ts';
export { courtesyMigrations } from './data/migrations.ts';
export { newCode, linkHoldId, redeemUrl } from './domain/codes.ts';
export { LINKS_PAGE_SIZE } from './domain/links.ts';
