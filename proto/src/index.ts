import './locale.ts';
export * from './envelope.ts';
export * from './events/index.ts';
export * from './money.ts';
export * from './api/catalog.ts';
export * from './cpf.ts';
export * from './api/identity.ts';
export * from './brand.ts';
export * from './api/orders.ts';
