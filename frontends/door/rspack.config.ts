import { frontendConfig } from '@ticketing/shared/build';

/** The door: the scanner staff carry on their phones (offline too) and the live panel by the entrance. */
export default frontendConfig({
  name: 'door',
  dir: import.meta.dirname,
  exposes: {
    './Scanner': './src/pages/Scanner.tsx',
    './DoorPanel': './src/pages/DoorPanel.tsx',
  },
});
