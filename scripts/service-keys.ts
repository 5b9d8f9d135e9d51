/**
 * `npm run service-keys`: a new Ed25519 key pair for every service, printed as the settings that carry them: one
 * `<NAME>_SERVICE_KEY` per service (its private key, for it alone) and `SERVICE_PUBLIC_KEYS` (for all of them). The
 * lines fit the `.env` file compose reads beside docker-compose.yml. Kubernetes' keys come from the same key ring,
 * written with the cluster's other credentials by `npm run k8s:secrets` (scripts/k8s-secrets.ts).
 */
import { generateKeyRing } from '@ticketing/platform';
import { PRODUCERS } from '@ticketing/proto';

const ring = generateKeyRing(PRODUCERS);
for (const name of PRODUCERS) console.log(`${name.toUpperCase()}_SERVICE_KEY=${ring.privateKeys[name]}`);
console.log(`SERVICE_PUBLIC_KEYS=${ring.publicKeys}`);
