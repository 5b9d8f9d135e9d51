import { frontendConfig } from '@ticketing/shared/build';

export default frontendConfig({
  name: 'admin',
  dir: import.meta.dirname,
  exposes: {
    './Scanner': './src/pages/Scanner.tsx',
    './CourtesyAdmin': './src/pages/CourtesyAdmin.tsx',
    './MassSend': './src/pages/MassSend.tsx',
    './AdminTest': './src/pages/AdminTest.tsx',
  },
});
