export { catalogService } from './service.ts';
export { catalogMigrations } from './data/migrations.ts';
export { createEvent, updateEvent, deactivateEvent } from './domain/manage-events.ts';
export { releaseHold } from './domain/inventory.ts';
export { holdSpots, type HoldResult } from './domain/holds.ts';
export { listEvents, getEvent } from './domain/browse-events.ts';
export { remainingSpots, type CatalogDeps, type CatalogEvent } from './domain/catalog-event.ts';
export { toEventView } from './http/views.ts';
