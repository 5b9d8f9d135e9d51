import { frontendConfig } from '@ticketing/shared/build';

export default frontendConfig({
  name: 'admin',
  dir: import.meta.dirname,
  exposes: {
    './CourtesyAdmin': './src/pages/CourtesyAdmin.tsx',
    './MassSend': './src/pages/MassSend.tsx',
    './AdminTest': './src/pages/AdminTest.tsx',
    './Events': './src/pages/Events.tsx',
    './EventEditor': './src/pages/EventEditor.tsx',
    './Participants': './src/pages/Participants.tsx',
    './Certificates': './src/pages/Certificates.tsx',
    './Sales': './src/pages/Sales.tsx',
    './Orders': './src/pages/Orders.tsx',
    './CourtesyRedemptions': './src/pages/CourtesyRedemptions.tsx',
    './Coupons': './src/pages/Coupons.tsx',
    './Finance': './src/pages/Finance.tsx',
  },
});
