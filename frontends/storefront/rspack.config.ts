import { frontendConfig } from '@ticketing/shared/build';

export default frontendConfig({
  name: 'storefront',
  dir: import.meta.dirname,
  exposes: {
    './Home': './src/pages/Home.tsx',
    './Events': './src/pages/Events.tsx',
    './EventDetail': './src/pages/EventDetail.tsx',
    './Courtesy': './src/pages/Courtesy.tsx',
    './Certificate': './src/pages/Certificate.tsx',
  },
});
