/**
 * `npm run service-keys`: a new Ed25519 key pair for every service, printed as the settings that carry them: one
 * `<NAME>_SERVICE_KEY` per service (its private key, for it alone) and `SERVICE_PUBLIC_KEYS` (for all of them). The
 * lines fit the `.env` file compose reads beside docker-compose.yml, and say what goes in Kubernetes' `service-keys`
 * Secret (one entry per service) and `service-public-keys` ConfigMap.
 */
import { generateKeyRing } from '@ticketing/platform';
import { PRODUCERS } from '@ticketing/proto';

const ring = generateKeyRing(PRODUCERS);
for (const name of PRODUCERS) console.log(`${name.toUpperCase()}_SERVICE_KEY=${ring.privateKeys[name]}`);
console.log(`SERVICE_PUBLIC_KEYS=${ring.publicKeys}`);
