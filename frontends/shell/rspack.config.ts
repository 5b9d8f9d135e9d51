import { frontendConfig } from '@ticketing/shared/build';

export default frontendConfig({ name: 'shell', dir: import.meta.dirname });
