export * from './envelope.ts';
export * from './events/index.ts';
export * from './money.ts';
export * from './api/catalog.ts';
