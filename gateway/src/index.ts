export { gatewayConfigSchema, type GatewayConfig } from './config.ts';
export { createGateway, type GatewayOptions, type RunningGateway } from './gateway.ts';
export { ROUTES, findRoute, type Route, type UpstreamName } from './routes.ts';
