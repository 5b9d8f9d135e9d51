/** The processes `npm start` runs, with the ports the rest of the system expects (compose and k8s use the same). */
export interface App {
  name: string;
  entry: string;
  port: number;
}

export const services: App[] = [
  { name: 'identity', entry: 'services/identity/src/main.ts', port: 3001 },
  { name: 'catalog', entry: 'services/catalog/src/main.ts', port: 3002 },
  { name: 'mail', entry: 'services/mail/src/main.ts', port: 3008 },
];

export const gateway: App = { name: 'gateway', entry: 'gateway/src/main.ts', port: 8080 };

/** The gateway finds each running service through `<NAME>_URL`. */
export const upstreamUrls = (apps: App[]) =>
  Object.fromEntries(
    apps.map((app) => [`${app.name.toUpperCase().replaceAll('-', '_')}_URL`, `http://127.0.0.1:${app.port}`]),
  );
